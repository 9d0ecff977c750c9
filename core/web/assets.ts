// The one stylesheet of every page (the web app's, then a section for the public pages and one for the
// OAuth pages, picked by the body's class and keeping each kind's own look) and the app's one small
// optional script, served from /web/ (the CSP allows only 'self'). Everything works without the script: it only adds drag-and-drop to reorder set items,
// submitting the same "move" form the buttons use.

export const APP_CSS = `
*{box-sizing:border-box}
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff}
a{color:#0b4fa8}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:1rem;padding:.6rem 1.2rem;border-bottom:1px solid #ccc;background:#f7f7f5}
.brand{font-weight:700;text-decoration:none;color:#1b1b1b}
nav{display:flex;flex-wrap:wrap;gap:.9rem;align-items:center;flex:1}
nav .who{margin-left:auto;color:#444}
main{max-width:62rem;margin:1.2rem auto;padding:0 1.2rem}
h1{font-size:1.6rem;margin:.4rem 0 .8rem}
h2{font-size:1.2rem;margin:1.6rem 0 .6rem}
form.inline{display:inline}
button,.button{font:inherit;padding:.3rem .8rem;border:1px solid #555;border-radius:4px;background:#fff;color:#1b1b1b;cursor:pointer;text-decoration:none;display:inline-block}
button.primary{background:#0b4fa8;border-color:#0b4fa8;color:#fff}
button.danger{border-color:#a4161a;color:#a4161a}
button.link{border:0;background:none;color:#0b4fa8;text-decoration:underline;padding:0}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}
input[type=text],input[type=search],input[type=number],select,textarea{font:inherit;padding:.35rem .5rem;border:1px solid #767676;border-radius:4px;max-width:100%}
input[type=text],textarea{width:100%}
textarea{font-family:ui-monospace,monospace;font-size:.9rem}
.filters{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end;margin-bottom:1rem}
.filters label{margin:0}
.list{list-style:none;padding:0;margin:0}
.list>li{border-bottom:1px solid #ddd;padding:.7rem 0}
.meta{color:#555;font-size:.9rem}
.excerpt{background:#fffbe6;border-left:3px solid #b58900;padding:.3rem .6rem;margin:.3rem 0;font-size:.93rem}
.prov{display:inline-block;font-size:.8rem;padding:0 .45rem;border-radius:3px;border:1px solid;white-space:nowrap}
.prov-human{background:#e8f5e9;color:#1b5e20;border-color:#1b5e20}
.prov-llm{background:#f3e8ff;color:#4a148c;border-color:#4a148c;border-style:dashed}
.costs{display:inline-flex;gap:.35rem;font-size:.82rem}
.cost{background:#eef2f7;color:#1b2a41;padding:0 .35rem;border-radius:3px;font-variant-numeric:tabular-nums}
.flash{background:#e8f5e9;border:1px solid #1b5e20;padding:.5rem .8rem}
.error{background:#fdecea;border:1px solid #a4161a;color:#7a0d10;padding:.5rem .8rem}
.secret{font-family:ui-monospace,monospace;background:#fffbe6;border:1px solid #b58900;padding:.5rem;word-break:break-all}
.content{border-top:1px solid #ddd;margin-top:1rem;padding-top:.5rem}
.content pre,pre.src{overflow:auto;background:#f5f5f5;padding:.75rem;white-space:pre-wrap}
.content code{background:#f5f5f5}
.note{background:#fff8e1;padding:.5rem .75rem}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
.versions li.current{font-weight:600}
.diff{font-family:ui-monospace,monospace;font-size:.88rem;white-space:pre-wrap;border:1px solid #ccc}
.diff div{padding:0 .5rem}
.diff .add{background:#e6ffec;color:#0f3d1b}
.diff .del{background:#ffebe9;color:#6e0b0b}
.diff .add::before{content:"+ "}.diff .del::before{content:"- "}.diff .same::before{content:"  "}
.sides{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
@media (max-width:50rem){.sides{grid-template-columns:1fr}}
.comment{border:1px solid #ccc;border-radius:4px;padding:.5rem .8rem;margin:.5rem 0}
.comment.llm{border-style:dashed;border-color:#4a148c;background:#faf5ff}
.comment.human{border-left:4px solid #1b5e20}
.items li{display:grid;grid-template-columns:2rem minmax(0,1fr) 12rem 12.5rem 25rem;gap:.6rem;align-items:center}
.items .actions{display:grid;grid-template-columns:6rem 7rem 6.5rem 4.5rem;gap:.3rem}
@media (max-width:72rem){.items li{display:flex;flex-wrap:wrap}}
.items li.dragging{opacity:.5}
.items .pos{font-variant-numeric:tabular-nums;color:#555;min-width:2rem}
.fit{color:#1b5e20}.nofit{color:#7a0d10}
.budget{border:1px solid #ccc;padding:.6rem 1rem;border-radius:4px;background:#fafafa}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.skip{position:absolute;left:-999px}
body.public{box-sizing:content-box;line-height:1.55;max-width:46rem;margin:2rem auto;padding:0 1rem}
.public main{max-width:none;margin:0;padding:0}
.public a{color:revert}
.public h1{font-size:2em;margin:.67em 0}
.public h2{font-size:1.5em;margin:.83em 0}
.public .meta{color:#666}
.public .summary{font-size:1.05rem}
.public pre{overflow:auto;background:#f5f5f5;padding:.75rem}
.public pre.source{white-space:pre-wrap}
.public code{background:#f5f5f5}
.public hr{border:0;border-top:1px solid #ddd}
.public table{border-collapse:separate;width:auto}
.public th,.public td{padding:1px;border:0;vertical-align:middle;text-align:revert}
.public.link-index li{margin:.5rem 0}
body.oauth{box-sizing:content-box;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}
.oauth main.box{max-width:none;margin:0;border:1px solid #ddd;border-radius:8px;padding:1.25rem 1.5rem}
.oauth a{color:revert}
.oauth h1{font-size:2em;margin:.67em 0}
.oauth .meta{color:#666}
.oauth button{padding:.5rem 1.25rem;margin-right:.5rem;border-radius:6px;border:1px solid #888;color:revert}
.oauth button.primary{background:#1f5fbf;color:#fff;border-color:#1f5fbf}
.oauth code{background:#f4f4f4;padding:0 .25rem}
`;

export const APP_JS = `
// Optional: drag set items to reorder; submits the page's own "move" form (POST with CSRF).
document.addEventListener('DOMContentLoaded', function () {
  var list = document.querySelector('ol[data-reorder]');
  var form = document.getElementById('move-form');
  if (!list || !form) return;
  var dragged = null;
  list.querySelectorAll('li[data-id]').forEach(function (li) {
    li.setAttribute('draggable', 'true');
    li.addEventListener('dragstart', function (e) { dragged = li; li.classList.add('dragging'); e.dataTransfer.effectAllowed = 'move'; e.dataTransfer.setData('text/plain', li.dataset.id); });
    li.addEventListener('dragend', function () { li.classList.remove('dragging'); });
    li.addEventListener('dragover', function (e) { e.preventDefault(); });
    li.addEventListener('drop', function (e) {
      e.preventDefault();
      if (!dragged || dragged === li) return;
      var items = Array.prototype.slice.call(list.querySelectorAll('li[data-id]'));
      form.elements.bindingId.value = dragged.dataset.id;
      form.elements.position.value = String(items.indexOf(li));
      form.submit();
    });
  });
});
`;

/** The tab icon: a small bound book (SVG), served at /favicon.ico too, which browsers ask for unprompted. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="5" y="3" width="22" height="26" rx="3" fill="#0b4fa8"/><rect x="9" y="3" width="3" height="26" fill="#083b7e"/><rect x="15" y="9" width="9" height="2" rx="1" fill="#fff"/><rect x="15" y="14" width="9" height="2" rx="1" fill="#fff"/><rect x="15" y="19" width="6" height="2" rx="1" fill="#fff"/></svg>`;
