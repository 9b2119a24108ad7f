/**
 * Actions as API v3 serves them: the actions stage's renderer over stored `actions` rows (src/actions render.ts,
 * the one its tests check) and its action type versions for `supported_action_types` (src/actions action-types.ts).
 */
export { actionAddresses, renderAction as actionJson, expandActionTypes as supportedTypes } from '../../actions/index.ts';
