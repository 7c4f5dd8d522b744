package dev.larch.server.tls;

/**
 * A TLS file the configuration names cannot be used. The message is one line that names the config
 * key and the file, made to be printed as it is when the server refuses to start.
 */
public final class TlsSetupException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TlsSetupException(String key, Object file, String problem) {
        super(key + " = " + file + ": " + problem);
    }
}
