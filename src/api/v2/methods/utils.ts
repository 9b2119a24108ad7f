/** detectAddress, detectHash, packAddress, unpackAddress: pure, no liteserver. */
import { formatFriendly, formatRaw, hashToBase64, hashToBase64Url, hashToHex, tryParseAddress, tryParseHash } from '../../../format/index.ts';
import { badParam } from '../../errors.ts';
import { detectAddressParams, detectHashParams, packAddressParams } from '../../../../schemas/api/v2/params.ts';
import { defineMethod } from '../method.ts';

function parseOr422(address: string) {
  const p = tryParseAddress(address);
  if (!p) throw badParam('address', `invalid address ${JSON.stringify(address.slice(0, 80))}`);
  return p;
}

export const detectAddress = defineMethod({
  name: 'detectAddress',
  params: detectAddressParams,
  async run(_ctx, p) {
    const a = parseOr422(p.address);
    // The friendly variants keep the testnet flag of the input (raw input has none).
    const testOnly = a.testOnly;
    const variant = (bounceable: boolean) => ({
      '@type': 'ext.utils.detectedAddressVariant',
      b64: formatFriendly(a, { bounceable, testOnly, urlSafe: false }),
      b64url: formatFriendly(a, { bounceable, testOnly, urlSafe: true }),
    });
    return {
      '@type': 'ext.utils.detectedAddress',
      raw_form: formatRaw(a, { lowerCase: true }),
      bounceable: variant(true),
      non_bounceable: variant(false),
      given_type: a.givenType,
      test_only: testOnly,
    };
  },
});

export const detectHash = defineMethod({
  name: 'detectHash',
  params: detectHashParams,
  async run(_ctx, p) {
    const h = tryParseHash(p.hash);
    if (!h) throw badParam('hash', 'expected 64 hex chars or 44-char base64/base64url');
    return { '@type': 'ext.utils.detectedHash', b64: hashToBase64(h.hex), b64url: hashToBase64Url(h.hex), hex: hashToHex(h.hex).toUpperCase() };
  },
});

export const packAddress = defineMethod({
  name: 'packAddress',
  params: packAddressParams,
  async run(ctx, p) {
    const a = parseOr422(p.address);
    // Bounceable unless the input itself was a non-bounceable friendly form; url-safe; testnet flag
    // kept from the input, or set when the deployment serves a test network.
    return formatFriendly(a, { bounceable: a.bounceable ?? true, testOnly: a.testOnly || ctx.network.testnet, urlSafe: true });
  },
});

export const unpackAddress = defineMethod({
  name: 'unpackAddress',
  params: packAddressParams,
  async run(_ctx, p) {
    return formatRaw(parseOr422(p.address));
  },
});
