/**
 * The models a language service parsed last (two by default): converting an open document for its rules, or for
 * `convert`, reuses the model the editor already read from the same text instead of parsing it again.
 */
export class RecentModels<M extends { readonly text: string }> {
  private readonly models: M[] = [];

  constructor(private readonly size = 2) {}

  remember(model: M): M {
    this.models.unshift(model);
    this.models.length = Math.min(this.models.length, this.size);
    return model;
  }

  /** The remembered model of this text (and, when given, that `matches`), if any. */
  find(text: string, matches: (model: M) => boolean = () => true): M | undefined {
    return this.models.find((model) => model.text === text && matches(model));
  }
}
