package dev.larch.config;

import java.util.List;

/**
 * Content synchronization ({@code replication.*}).
 *
 * @param serverId this server's ID in the CSNs it stamps and the cookies it sends, 1..{@value
 *     #MAX_SERVER_ID}
 * @param changelogMaxChanges the most changes the change log keeps; 0 for no bound by count
 * @param changelogMaxAgeSeconds the oldest change the change log keeps, in seconds; 0 for no bound
 *     by age
 * @param consumerDn the bind DN of replication consumers whose sync searches are not held to the
 *     search limits; empty for none
 * @param multiProvider whether this server accepts writes while it consumes (a multi-provider member)
 * @param maxClockSkewSeconds how far ahead of the local clock a provider's CSN may be before it is refused
 * @param consumers the providers this server consumes from, in replica ID order; empty for none
 */
public record Replication(
        int serverId,
        long changelogMaxChanges,
        long changelogMaxAgeSeconds,
        String consumerDn,
        boolean multiProvider,
        int maxClockSkewSeconds,
        List<ReplicationConsumer> consumers) {
    /** Whether a consumer DN is named. */
    public boolean hasConsumerDn() {
        return !consumerDn.isEmpty();
    }

    /** The highest server ID a CSN can carry (three hex digits). */
    public static final int MAX_SERVER_ID = 0xFFF;

    public Replication {
        if (serverId < 1 || serverId > MAX_SERVER_ID) {
            throw new IllegalArgumentException("serverId must be 1.." + MAX_SERVER_ID + ", was " + serverId);
        }
        consumerDn = consumerDn.strip();
        if (changelogMaxChanges < 0 || changelogMaxAgeSeconds < 0) {
            throw new IllegalArgumentException("change log bounds must not be negative");
        }
        if (maxClockSkewSeconds < 1) {
            throw new IllegalArgumentException("maxClockSkewSeconds must be positive, was " + maxClockSkewSeconds);
        }
        consumers = List.copyOf(consumers);
        if (consumers.stream().map(ReplicationConsumer::rid).distinct().count() != consumers.size()) {
            throw new IllegalArgumentException("two consumers with one rid");
        }
    }
}
