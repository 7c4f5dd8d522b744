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

    EntryView(StoredEntry entry, AciSchema schema) {
        this.entry = entry;
        this.schema = schema;
    }

    StoredEntry entry() {
        return entry;
    }

    long id() {
        return entry.id();
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
        if (entry.dn().isEmpty()) {
            canonical = "";
            rdns = 0;
            return;
        }
        var dn = schema.parse(entry.dn());
        canonical = AciSchema.canonical(dn);
        rdns = dn.size();
    }
}
