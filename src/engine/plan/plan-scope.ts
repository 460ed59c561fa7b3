import type { LookupResult, TemplateLookup } from '../template/interpolate.js';

/**
 * One lexical block of a STEP plan (docs/workflows.md, STEP plans). `returns` binds in the block it runs in;
 * lookups walk outwards, so nested blocks see outer variables, and a nested binding shadows
 * an outer one without ever changing it.
 */
export class PlanScope {
  private readonly vars = new Map<string, unknown>();

  constructor(private readonly parent?: PlanScope) {}

  /** A fresh block nested in this one (an `each_item` iteration, an `if` or `else` block). */
  child(): PlanScope {
    return new PlanScope(this);
  }

  /** Binds `name` in this block only. */
  bind(name: string, value: unknown): void {
    this.vars.set(name, value);
  }

  /** The innermost binding of `name`. */
  find(name: string): LookupResult {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the walk up the parent chain starts here
    for (let scope: PlanScope | undefined = this; scope; scope = scope.parent) {
      if (scope.vars.has(name)) return { found: true, value: scope.vars.get(name) };
    }
    return { found: false };
  }

  /** This scope as a template lookup. */
  get lookup(): TemplateLookup {
    return (name) => this.find(name);
  }

  /** This block's own bindings, in binding order (the plan result's `variables`). */
  own(): Record<string, unknown> {
    return Object.fromEntries(this.vars);
  }
}
