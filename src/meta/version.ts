import packageJson from "../../package.json";

/** The interface specification's version, answered as `version` by discovery. */
export const API_VERSION = "1.0.0";
/** The featureboard build. */
export const APP_VERSION: string = packageJson.version;
