package dev.larch.server.access;

import dev.larch.server.entry.StoredEntry;

/**
 * The entry a decision is about, with its canonical DN worked out only if some ACI needs it. Not
 * thread-safe; lives for one decision.
 */
final class EntryView {
    private final StoredEntry entry;
    private final AciSchema schema;
    private String canonical;
    private int rdns;

    private final long id;

    EntryView(StoredEntry entry, AciSchema schema) {
        this.entry = entry;
        this.schema = schema;
        this.id = entry.id();
    }

    private EntryView(long id) {
        this.entry = null;
        this.schema = null;
        this.id = id;
    }

    /**
     * An entry known only by its ID, for rules that never look further ({@link EntryDependence}
     * below ANY): asking for its content is a bug in the caller, and fails loudly.
     */
    static EntryView unread(long id) {
        return new EntryView(id);
    }

    StoredEntry entry() {
        if (entry == null) {
            throw new IllegalStateException("entry " + id + " was not read, yet a rule looks at its content");
        }
        return entry;
    }

    long id() {
        return id;
    }

    String canonicalDn() {
        if (canonical == null) {
            resolve();
        }
        return canonical;
    }

    int rdns() {
        if (canonical == null) {
            resolve();
        }
        return rdns;
    }

    private void resolve() {
        if (entry().dn().isEmpty()) {
            canonical = "";
            rdns = 0;
            return;
        }
        var dn = schema.parse(entry().dn());
        canonical = AciSchema.canonical(dn);
        rdns = dn.size();
    }
}
