/** The frame of the server-rendered pages (first run, sign-in, OAuth consent, invitations): escaped, self-contained. */

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f6fb;color:#1b2030}
.wrap{min-height:100vh;display:flex;align-items:center;justify-content:center;padding:24px}
.card{background:#fff;border-radius:14px;box-shadow:0 8px 30px rgba(20,30,60,.08);padding:36px 36px 28px;width:100%;max-width:420px}
.brand{display:flex;align-items:center;gap:10px;font-weight:700;font-size:18px;margin-bottom:22px;color:#1b2030}
.brand svg{width:28px;height:28px}
h1{font-size:22px;margin:0 0 6px}p.lead{margin:0 0 22px;color:#5b6478}
label,.label{display:block;font-weight:600;font-size:13px;margin:14px 0 6px}
input[type=text],input[type=email],input[type=password]{width:100%;padding:10px 12px;border:1px solid #cfd5e3;border-radius:8px;font:inherit}
input:focus{outline:2px solid #4c6ef5;outline-offset:0;border-color:#4c6ef5}
button{margin-top:22px;width:100%;padding:11px;border:0;border-radius:8px;background:#4c6ef5;color:#fff;font:600 15px system-ui;cursor:pointer}
button:hover{background:#3b5bdb}button.secondary{background:#eef1f8;color:#1b2030}
.error{background:#fff0f0;border:1px solid #ffc9c9;color:#c92a2a;border-radius:8px;padding:10px 12px;margin-bottom:8px}
.hint{color:#7a8399;font-size:13px;margin-top:16px;text-align:center}
a{color:#3b5bdb}a.button{display:block;margin-top:22px;padding:11px;border-radius:8px;background:#4c6ef5;color:#fff;font:600 15px system-ui;text-align:center;text-decoration:none}
.field-hint{margin:6px 0 0;color:#7a8399;font-size:13px}
.static{padding:10px 12px;border:1px solid #e3e7f0;border-radius:8px;background:#f7f8fc;color:#3d4457}
.note{background:#f1f4ff;border:1px solid #d5ddff;color:#2f3d8a;border-radius:8px;padding:10px 12px;margin-bottom:8px;font-size:14px}
fieldset{border:0;padding:0;margin:0}legend{font-weight:700;margin:18px 0 0;font-size:14px;color:#5b6478;text-transform:uppercase;letter-spacing:.04em}
`

const LOGO = `<svg viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="8" fill="#4c6ef5"/><path d="M9 23h14l-3-5h-8zM11.5 17h9l-2-4h-5zM14 12h4l-2-4z" fill="#fff"/></svg>`

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Cairn</title><style>${STYLE}</style></head>
<body><main class="wrap"><div class="card"><div class="brand">${LOGO}<span>Cairn</span></div>${body}</div></main></body></html>`
}
