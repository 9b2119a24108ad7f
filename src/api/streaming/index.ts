/**
 * Streaming API v2 (toncenter's protocol, SSE and WebSocket): the route group for the server shell and the hub that
 * feeds it. Mounted per network that has a store and a notification feed (`services.store`, `services.feed`).
 */
import type { FastifyPluginAsync } from 'fastify';
import websocket from '@fastify/websocket';
import type { NetworkContext, RouteGroup } from '../server.ts';
import type { StreamHub } from './hub.ts';
import { streamingRoutes } from './routes.ts';

export { DEFAULT_STREAM_LIMITS, HubClient, StreamHub, type DeliveryObserver, type HubOptions, type HubStats, type StreamLimits } from './hub.ts';
export { EVENT_TYPES, FINALITY_RANK, SubscriptionError, parseSubscription, type EventType, type Finality, type Subscription } from './subscription.ts';
export { notesFor, type Note, type RenderedPart } from './notify.ts';

export const STREAMING_API_VERSION = '2';

/** The WebSocket plugin, registered once at the root before the groups (its upgrade handler routes through fastify). */
export const websocketPlugin: { plugin: FastifyPluginAsync<Record<string, unknown>>; opts: Record<string, unknown> } = {
  plugin: websocket as unknown as FastifyPluginAsync<Record<string, unknown>>,
  opts: { options: { maxPayload: 1024 * 1024 } },
};

export function streamingGroup(hubOf: (network: NetworkContext) => StreamHub | undefined): RouteGroup {
  return {
    name: 'streaming',
    prefix: '/api/streaming/v2',
    apiVersion: STREAMING_API_VERSION,
    // toncenter's streaming errors: {id?, error}
    renderError: (error) => ({ error: error.message }),
    routes(app, network) {
      const hub = hubOf(network);
      if (hub) streamingRoutes(app, hub);
    },
  };
}
