package dev.larch.server.access;

import java.util.Locale;

/** The rights an ACI grants or denies, as bits of an {@code int}. */
public final class Rights {
    public static final int READ = 1;
    public static final int SEARCH = 1 << 1;
    public static final int COMPARE = 1 << 2;
    public static final int WRITE = 1 << 3;
    public static final int SELFWRITE = 1 << 4;
    public static final int ADD = 1 << 5;
    public static final int DELETE = 1 << 6;
    public static final int PROXY = 1 << 7;
    /** As in 389-DS, {@code all} is every right but {@code proxy}. */
    public static final int ALL = READ | SEARCH | COMPARE | WRITE | SELFWRITE | ADD | DELETE;

    private Rights() {}

    /** The bit of a right's name (case-insensitive), or 0 when it names none. */
    static int named(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "read" -> READ;
            case "search" -> SEARCH;
            case "compare" -> COMPARE;
            case "write" -> WRITE;
            case "selfwrite" -> SELFWRITE;
            case "add" -> ADD;
            case "delete" -> DELETE;
            case "proxy" -> PROXY;
            case "all" -> ALL;
            default -> 0;
        };
    }

    /** The name of one right, for messages. */
    static String name(int right) {
        return switch (right) {
            case READ -> "read";
            case SEARCH -> "search";
            case COMPARE -> "compare";
            case WRITE -> "write";
            case SELFWRITE -> "selfwrite";
            case ADD -> "add";
            case DELETE -> "delete";
            case PROXY -> "proxy";
            default -> "rights " + right;
        };
    }
}
