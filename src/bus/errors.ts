/**
 * Errors both buses raise for the same situations, so stages and tests handle them the same way on either.
 * `retriable` says whether asking again later can succeed (as kafkajs marks broker errors).
 */

/** A topic that does not exist, or whose partitions have no leader yet (Kafka: UNKNOWN_TOPIC_OR_PARTITION). */
export class UnknownTopicError extends Error {
  readonly retriable = true;
  constructor(readonly topic: string) {
    super(`topic "${topic}" does not exist (yet): run \`ton-gateway kafka init\`, or start any role, which creates the topics first`);
    this.name = 'UnknownTopicError';
  }
}

/** A create of a topic that exists (Kafka: TOPIC_ALREADY_EXISTS); ensureTopics takes it as success. */
export class TopicExistsError extends Error {
  readonly retriable = false;
  constructor(readonly topic: string) {
    super(`topic "${topic}" already exists`);
    this.name = 'TopicExistsError';
  }
}

/**
 * One consumer group subscribed to two topics. Kafka assigns the partitions of every topic a group's members
 * subscribe to across all of them, so a member holds partitions of a topic it never reads and they stall (issue 20,
 * finding 1). Each stage gives each topic its own group.
 */
export class GroupTopicError extends Error {
  readonly retriable = false;
  constructor(
    readonly group: string,
    readonly topic: string,
    readonly other: string,
  ) {
    super(
      `consumer group "${group}" already consumes topic "${other}"; it cannot also consume "${topic}": a group reads one topic on this bus ` +
        `(Kafka would assign "${other}" partitions to the "${topic}" member, which never reads them). Give "${topic}" its own group`,
    );
    this.name = 'GroupTopicError';
  }
}

/**
 * The group coordinator removed this member: its handler ran past the session timeout without a heartbeat (or
 * its process died). Its partitions went to the other members and its commit is refused (Kafka:
 * UNKNOWN_MEMBER_ID); the bus rejoins the group and the refused batch is delivered again to whoever owns it now.
 */
export class MemberRemovedError extends Error {
  readonly retriable = true;
  constructor(
    readonly group: string,
    detail: string,
  ) {
    super(`consumer group "${group}": the coordinator is not aware of this member (${detail}); its commit is refused and it rejoins`);
    this.name = 'MemberRemovedError';
  }
}
