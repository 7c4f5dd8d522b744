package dev.larch.server.protocol;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * A DN that is only a name: the DN string of a stored entry, handed to the encoder of a
 * SearchResultEntry, which reads nothing but {@link #getName()}. Parsing every returned entry's
 * DN into RDNs cost 133 of 749 CPU samples (JFR, messaging mix at 100k entries) for a string the
 * store already holds.
 *
 * <p>Use it for nothing else: it has no RDNs, so every other Dn method sees an empty DN.
 */
public final class StoredDn extends Dn {
    private static final long serialVersionUID = 1L;

    private final String name;

    public StoredDn(String name) {
        this.name = name;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredDn other && name.equals(other.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }
}
