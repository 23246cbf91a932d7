/**
 * A value built at its first use and kept: for what a module would otherwise build when it is
 * imported (zod schemas, say) although most commands never use it — every start pays what a
 * module builds at its top level.
 */
export function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
