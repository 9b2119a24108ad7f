/**
 * The streaming stage's pipeline side: the notification feed (in-process, Kafka) and the publisher the traces stage
 * and the checkpoint feed. The API side (subscriptions, rendering, SSE and WebSocket) is src/api/streaming.
 */
export { FanoutSink, InProcessFeed, type FeedHandler, type NotificationFeed, type NotificationSink } from './feed.ts';
export { KafkaNotificationFeed, KafkaNotificationSink, type KafkaFeedOptions } from './kafka.ts';
export { jsonRow, NotificationPublisher, traceNorm, type PipelineNotifications } from './publisher.ts';
export type { FeedEvent, FeedFinalized, FeedSeqno, FeedTrace } from '../../schemas/bus/index.ts';
