// The facts of a version that rendering reads, apart from tier.ts so render and card-fit need not import it.

/** The immutable facts of one version that every tier is rendered from. */
export interface VersionFacts {
  bindingId: string;
  spaceSlug: string;
  bindingSlug: string;
  number: number;
  name: string;
  summary: string;
  keyPoints: string[];
  contentTokenCount: number;
  summaryTokenCount: number;
  contentPreview: string;
  contentChars: number;
  /** Random marker absent from the content; fences content wherever it is shown. */
  fence: string;
  source: 'human' | 'llm';
  model: string | null;
  createdAt: number;
}
