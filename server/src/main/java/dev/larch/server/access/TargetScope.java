package dev.larch.server.access;

/** {@code targetscope}: which entries relative to an ACI's base it reaches. */
enum TargetScope {
    /** The base entry alone. */
    BASE,
    /** The base's immediate children, not the base. */
    ONELEVEL,
    /** The base and everything below it (the default). */
    SUBTREE,
    /** Everything below the base, not the base. */
    SUBORDINATE;

    /** Whether an entry {@code depth} levels below the base (0 = the base) is reached. */
    boolean reaches(int depth) {
        return switch (this) {
            case BASE -> depth == 0;
            case ONELEVEL -> depth == 1;
            case SUBTREE -> depth >= 0;
            case SUBORDINATE -> depth >= 1;
        };
    }
}
