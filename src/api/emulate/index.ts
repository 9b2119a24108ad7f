/**
 * The API side of emulated traces (src/emulate): the emulation state read from the index and the liteservers,
 * toncenter's emulation API (`/api/emulate/v1/emulateTrace`) and the renderers API v3's pending routes and the
 * streaming API use for emulated traces.
 */
export { liteserverState, EmulationStateMissing } from './state.ts';
export { emulateGroup, parseEmulateRequest, EMULATE_API_VERSION } from './routes.ts';
export { pendingActionJson, renderEmulated, type RenderedEmulation } from './render.ts';
export { emulatedPending } from './pending.ts';
