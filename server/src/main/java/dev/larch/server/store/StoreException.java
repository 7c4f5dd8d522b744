package dev.larch.server.store;

/** A store failure the caller cannot fix by retrying with other input (I/O, a full map, corruption). */
public class StoreException extends RuntimeException {
    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
