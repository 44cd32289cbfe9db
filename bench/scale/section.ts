/** What a section of `bench:scale` hands back: its markdown and its results (written as JSON). */
export interface SectionReport {
  readonly title: string;
  readonly markdown: string;
  readonly results: readonly object[];
}
