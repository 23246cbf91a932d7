/**
 * The extension API version this host implements (`api.hostVersion`), checked against an
 * extension's `hostVersion` range at load. It follows semver on its own, apart from the package
 * versions: the major moves when `api/sdk.api.md` changes incompatibly, the minor when it grows.
 */
export const HOST_API_VERSION = "1.0.0";
