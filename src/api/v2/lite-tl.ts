/** API v2 speaks the project's one lite_api schema (src/tl/lite-api.ts). */
export { liteApi as liteV2 } from '../../tl/index.ts';
