/** The frame of the server-rendered pages (first run, sign-in, OAuth consent, invitations): escaped, self-contained. */
import { BRAND_COLORS, BRAND_NAME, FONT_FAMILY, markSvg } from '../shared/brand.ts'

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

// The app's look (Mantine, web/src/theme.ts) in plain CSS: the same colours, type, sizes and radii
// as its inputs, buttons, alerts and bordered cards, so signing in and using the app feel as one.
const C = BRAND_COLORS
const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.55 ${FONT_FAMILY};background:${C.surface};color:${C.text};-webkit-font-smoothing:antialiased}
.wrap{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:24px}
.brand{display:flex;align-items:center;gap:8px;font-weight:700;font-size:18px;margin-bottom:20px;color:${C.text}}
.card{background:#fff;border:1px solid #dee2e6;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.05),0 1px 2px rgba(0,0,0,.1);padding:32px;width:100%;max-width:440px}
h1{font-size:24px;font-weight:650;line-height:1.3;margin:0 0 6px}p.lead{margin:0 0 20px;color:${C.dimmed};font-size:15px}
label,.label{display:block;font-weight:500;font-size:14px;margin:14px 0 4px}
input[type=text],input[type=email],input[type=password],select{width:100%;height:36px;padding:0 12px;border:1px solid ${C.border};border-radius:8px;font:inherit;font-size:14px;background:#fff;color:inherit}
input:focus,select:focus{outline:none;border-color:${C.primary}}
button{margin-top:22px;width:100%;height:38px;border:1px solid transparent;border-radius:8px;background:${C.primary};color:#fff;font:600 14px ${FONT_FAMILY};cursor:pointer}
button:hover{background:${C.primaryHover}}button:focus-visible{outline:2px solid ${C.primary};outline-offset:2px}
button.secondary{margin-top:10px;background:#fff;color:${C.text};border-color:${C.border}}button.secondary:hover{background:${C.surface}}
.error{background:#fff5f5;border:1px solid #ffc9c9;color:#c92a2a;border-radius:8px;padding:10px 12px;margin:12px 0 8px;font-size:14px}
.warning{background:#fff9db;border:1px solid #ffe066;color:#7c5e00;border-radius:8px;padding:10px 12px;margin-bottom:12px;font-size:14px}
.hint{color:${C.dimmed};font-size:13px;margin-top:16px}
ul.scopes{padding-left:20px;margin:0 0 8px;font-size:15px}ul.scopes li{margin:4px 0}
fieldset{border:0;padding:0;margin:0}legend{font-weight:600;margin:18px 0 0;font-size:12px;color:${C.dimmed};text-transform:uppercase;letter-spacing:.6px}
a{color:${C.primaryHover}}a.button{display:block;margin-top:22px;height:38px;line-height:38px;border-radius:8px;background:${C.primary};color:#fff;font:600 14px ${FONT_FAMILY};text-align:center;text-decoration:none}a.button:hover{background:${C.primaryHover}}
.field-hint{margin:6px 0 0;color:${C.dimmed};font-size:13px}
.static{padding:8px 12px;border:1px solid #dee2e6;border-radius:8px;background:${C.surface};color:${C.text};font-size:14px}
.note{background:${C.primaryLight};border:1px solid #96f2d7;color:#087f5b;border-radius:8px;padding:10px 12px;margin-bottom:8px;font-size:14px}
.footer{margin-top:18px;color:${C.dimmed};font-size:12px}
`

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · ${BRAND_NAME}</title><style>${STYLE}</style></head>
<body><main class="wrap"><div class="brand">${markSvg(30)}<span>${BRAND_NAME}</span></div><div class="card">${body}</div></main></body></html>`
}
