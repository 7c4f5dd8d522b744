package dev.larch.config;

/** The kinds of attribute index an attribute can have. */
public enum IndexKind {
    EQUALITY,
    PRESENCE,
    SUBSTRING,
    ORDERING
}
