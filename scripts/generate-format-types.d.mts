/** One generated file: its path relative to the repository, and its contents. */
export interface RenderedFile {
  file: string;
  text: string;
}

/** Which schema becomes which type, in which file (see the .mjs). */
export declare const FORMAT_FILES: ReadonlyArray<{
  file: string;
  roots: ReadonlyArray<{ module: string; export: string; type: string; names?: Record<string, string>; types?: Record<string, string> }>;
}>;

/** Renders every generated format type file from the schemas `load` imports. */
export declare function renderFormatTypes(load: (module: string) => Promise<Record<string, unknown>>): Promise<RenderedFile[]>;
