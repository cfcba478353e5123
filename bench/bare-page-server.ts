/**
 * The fixed-rate baseline of bench:records: a bare Node HTTP server answering every request with
 * one fixed page (the service's own first page, read from the file given), so the open loop's tail
 * on this machine can be told from the service's. Usage: node bench/bare-page-server.ts <port> <file>
 */
import fs from 'node:fs'
import http from 'node:http'

const [port, file] = process.argv.slice(2)
const body = fs.readFileSync(file, 'utf8')
http
  .createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'))
