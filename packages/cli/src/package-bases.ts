/**
 * Where package names in settings resolve besides the project: this CLI's own installation, whose
 * dependencies are the first-party plugins, so `@gatehouse/protected-paths` works in any project.
 */
export const PACKAGE_BASES: string[] = [import.meta.url];
