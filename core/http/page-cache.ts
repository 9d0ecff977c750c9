import { renderMarkdown } from './markdown.ts';

/** What the page cache has done, for tests and operators. */
export interface PageCacheStats {
  renders: number;
  hits: number;
  entries: number;
  /** Characters of HTML held (a JS string costs one or two bytes a character). */
  chars: number;
}

/** 16 M characters: at most ~32 MB of rendered pages, whatever their mix. */
export const PAGE_CACHE_CHARS = 16 * 1024 * 1024;

/**
 * Rendered Markdown of public pages by version id. A version never changes, so its HTML is made once
 * and kept while it is among the recently used; the cache is bounded in characters, least recently
 * used first out. Concurrent requests for a version not yet rendered wait for the one render.
 */
export class PageCache {
  private readonly entries = new Map<string, string>();
  private readonly rendering = new Map<string, Promise<string>>();
  private held = 0;
  private renders = 0;
  private hits = 0;

  constructor(
    private readonly maxChars = PAGE_CACHE_CHARS,
    private readonly render: (source: string) => string = renderMarkdown,
  ) {}

  /** The HTML of version `versionId`; `load` reads its Markdown, only when it must be rendered. */
  async html(versionId: string, load: () => Promise<string>): Promise<string> {
    const hit = this.entries.get(versionId);
    if (hit !== undefined) {
      this.hits++;
      this.entries.delete(versionId);
      this.entries.set(versionId, hit);
      return hit;
    }
    let pending = this.rendering.get(versionId);
    if (!pending) {
      pending = load().then((source) => {
        this.renders++;
        const html = this.render(source);
        this.keep(versionId, html);
        return html;
      });
      this.rendering.set(versionId, pending);
      void pending.finally(() => this.rendering.delete(versionId)).catch(() => {});
    } else this.hits++;
    return pending;
  }

  get stats(): PageCacheStats {
    return { renders: this.renders, hits: this.hits, entries: this.entries.size, chars: this.held };
  }

  private keep(versionId: string, html: string): void {
    // A page larger than a quarter of the cache would push out everything else for one reader.
    if (html.length > this.maxChars / 4) return;
    this.entries.set(versionId, html);
    this.held += html.length;
    for (const [id, old] of this.entries) {
      if (this.held <= this.maxChars) break;
      this.entries.delete(id);
      this.held -= old.length;
    }
  }
}
