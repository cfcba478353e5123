// Owns the invertible child -> parent mapping the generator uses for relationships: child j maps to
// a parent, and a parent maps back to its contiguous range of children, both in O(1). Every
// `skip`-th parent gets no children (so empty subqueries come back as null, as on the platform).

export class Spread {
  readonly children: number
  readonly parents: number
  readonly skip: number
  private readonly eligible: number

  constructor(children: number, parents: number, skip = 0) {
    this.children = children
    this.parents = parents
    this.skip = skip
    this.eligible = skip > 1 ? parents - Math.floor(parents / skip) : parents
  }

  parentOf(j: number): number {
    if (this.eligible <= 0 || j >= this.children) return -1
    const e = Math.floor((j * this.eligible) / this.children)
    if (this.skip <= 1) return e
    const k = this.skip - 1
    return Math.floor(e / k) * this.skip + (e % k)
  }

  /** [lo, hi) of the children of parent p. */
  range(p: number): [number, number] {
    if (p < 0 || p >= this.parents || this.eligible <= 0) return [0, 0]
    let e = p
    if (this.skip > 1) {
      if (p % this.skip === this.skip - 1) return [0, 0]
      e = Math.floor(p / this.skip) * (this.skip - 1) + (p % this.skip)
    }
    const lo = Math.ceil((e * this.children) / this.eligible)
    const hi = Math.ceil(((e + 1) * this.children) / this.eligible)
    return [lo, Math.min(hi, this.children)]
  }
}
