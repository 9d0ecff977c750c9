import MarkdownIt from 'markdown-it';

/**
 * Markdown to inert HTML. `html: false` shows raw HTML (a `<script>` included) as text, and
 * markdown-it's default link validation drops `javascript:`, `vbscript:`, `file:` and non-image
 * `data:` URLs. The page also sends a Content-Security-Policy without script-src, so nothing from
 * content could run even if a rule here were missed.
 */
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('rel', 'nofollow noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/** Renders binding content for a public page. */
export function renderMarkdown(source: string): string {
  return md.render(source);
}

/** Escapes text for HTML element content and quoted attributes. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
