package dev.larch.server.protocol;

/**
 * Told the size of every chunk of LDAP bytes a connection reads or writes (after TLS decryption,
 * before TLS encryption), for monitoring. Called on the connections' event loops, from many at once:
 * an implementation must be thread-safe and cheap (a counter increment).
 */
public interface ByteCounts {

    /** {@code bytes} were read from a client. */
    void received(int bytes);

    /** {@code bytes} were queued for writing to a client. */
    void sent(int bytes);
}
