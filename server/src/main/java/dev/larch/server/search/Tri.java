package dev.larch.server.search;

/** RFC 4511 section 4.5.1.7 filter results: a filter item may be TRUE, FALSE or Undefined. */
public enum Tri {
    TRUE,
    FALSE,
    UNDEFINED;

    public static Tri of(boolean b) {
        return b ? TRUE : FALSE;
    }

    public Tri not() {
        return switch (this) {
            case TRUE -> FALSE;
            case FALSE -> TRUE;
            case UNDEFINED -> UNDEFINED;
        };
    }
}
