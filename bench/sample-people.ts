/** Names, titles and places the write benchmarks' records are made of (bench/batch.ts, bench/csv-import.ts). */
export const FIRST = ['Ada', 'Grace', 'Alan', 'Linus', 'Margaret', 'Ken', 'Barbara', 'Dennis', 'Frances', 'Edsger', 'Radia', 'Donald', 'Hedy', 'John', 'Karen', 'Leslie']
export const LAST = ['Lovelace', 'Hopper', 'Turing', 'Torvalds', 'Hamilton', 'Thompson', 'Liskov', 'Ritchie', 'Allen', 'Dijkstra', 'Perlman', 'Knuth', 'Lamarr', 'McCarthy', 'Spärck Jones', 'Lamport']
export const TITLES = ['VP Engineering', 'Head of Procurement', 'Account Manager', 'CFO', 'Operations Lead', 'IT Director', 'Office Manager', 'Chief of Staff']
export const DEPARTMENTS = ['Engineering', 'Finance', 'Sales', 'Operations', 'IT', 'Legal']
export const CITIES = [
  ['Portland', 'OR', '97201'],
  ['Austin', 'TX', '73301'],
  ['Boston', 'MA', '02108'],
  ['Denver', 'CO', '80202'],
  ['Chicago', 'IL', '60601'],
]
