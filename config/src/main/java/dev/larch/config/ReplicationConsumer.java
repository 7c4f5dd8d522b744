package dev.larch.config;

import java.util.Locale;

/**
 * One provider this server consumes from ({@code replication.consumer.<rid>.*}): where it is, how to
 * bind to it and how to follow it.
 *
 * @param rid the replica ID, 1..{@value #MAX_RID}, in every cookie this consumer sends
 * @param providerUrl the URL as configured, for logs and the monitor
 * @param host the provider's host name or address, also the name its certificate must carry
 * @param port the provider's port
 * @param ldaps whether the connection is TLS from the start ({@code ldaps://})
 * @param startTls whether StartTLS precedes the bind (never with {@code ldaps})
 * @param bindDn the DN of the simple bind
 * @param bindPassword its password; never printed by {@link #toString()}
 * @param mode what the sync search asks for
 * @param intervalSeconds refreshOnly: seconds between the end of a search and the next
 * @param retrySeconds the first wait after a failure
 * @param maxRetrySeconds the longest wait after failures, at least {@code retrySeconds}
 */
public record ReplicationConsumer(
        int rid,
        String providerUrl,
        String host,
        int port,
        boolean ldaps,
        boolean startTls,
        String bindDn,
        String bindPassword,
        Mode mode,
        int intervalSeconds,
        int retrySeconds,
        int maxRetrySeconds) {

    /** The highest replica ID a sync cookie carries (three decimal digits). */
    public static final int MAX_RID = 999;

    /** The two modes of a sync search (RFC 4533 section 2.2), as the config file spells them. */
    public enum Mode {
        REFRESH_AND_PERSIST("refreshAndPersist"),
        REFRESH_ONLY("refreshOnly");

        private final String configWord;

        Mode(String configWord) {
            this.configWord = configWord;
        }

        public String configWord() {
            return configWord;
        }

        static Mode fromConfigWord(String word) {
            for (Mode mode : values()) {
                if (mode.configWord.equalsIgnoreCase(word)) {
                    return mode;
                }
            }
            throw new IllegalArgumentException("unknown mode " + word);
        }
    }

    /** This consumer's key for {@code field}: {@code replication.consumer.<rid>.<field>}, for messages. */
    public String key(String field) {
        return ReplicationConsumerSettings.PREFIX + rid + "." + field;
    }

    /** @throws IllegalArgumentException when a value is out of range or the TLS choices contradict */
    public ReplicationConsumer {
        if (rid < 1 || rid > MAX_RID) {
            throw new IllegalArgumentException("rid must be 1.." + MAX_RID + ", was " + rid);
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port must be 1..65535, was " + port);
        }
        if (ldaps && startTls) {
            throw new IllegalArgumentException("StartTLS on an ldaps:// connection");
        }
        if (intervalSeconds < 1 || retrySeconds < 1 || maxRetrySeconds < retrySeconds) {
            throw new IllegalArgumentException("interval and retry seconds must be positive, max-retry >= retry");
        }
        if (host.isEmpty() || bindDn.isEmpty() || mode == null) {
            throw new IllegalArgumentException("host, bind DN and mode are required");
        }
    }

    /** Whether the connection is encrypted before the bind, by ldaps:// or StartTLS. */
    public boolean tls() {
        return ldaps || startTls;
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "ReplicationConsumer[rid=%d, providerUrl=%s, startTls=%s, bindDn=%s, bindPassword=***, mode=%s,"
                        + " intervalSeconds=%d, retrySeconds=%d, maxRetrySeconds=%d]",
                rid,
                providerUrl,
                startTls,
                bindDn,
                mode.configWord(),
                intervalSeconds,
                retrySeconds,
                maxRetrySeconds);
    }
}
