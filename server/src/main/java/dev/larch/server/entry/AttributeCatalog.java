package dev.larch.server.entry;

import java.util.HashMap;
import java.util.Map;

import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * The small numbers that stand for attribute types in stored entries. A stored entry names each
 * attribute with a one- or two-byte varint instead of its OID; the numbering is persisted by the
 * store, so it survives schema changes between runs.
 *
 * <p>Immutable; thread-safe.
 */
public final class AttributeCatalog {
    private final Map<String, Integer> idsByOid;
    private final String[] oids;
    private final AttributeType[] types;

    /**
     * @param ids attribute OID → stored ID, covering every attribute type of {@code schema}
     */
    public AttributeCatalog(SchemaManager schema, Map<String, Integer> ids) {
        this.idsByOid = new HashMap<>(ids.size() * 2);
        int max = ids.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        this.oids = new String[max + 1];
        this.types = new AttributeType[max + 1];
        ids.forEach((oid, id) -> {
            AttributeType type = schema.getAttributeType(oid);
            // The schema's own string where it has the type: a compiled filter names attributes with
            // the schema's strings, so a lookup of one finds its key by reference, not by comparing
            // two OIDs' characters.
            String canonical = type != null && type.getOid().equals(oid) ? type.getOid() : oid;
            idsByOid.put(canonical, id);
            oids[id] = canonical;
            types[id] = type;
        });
    }

    /** The stored ID of an attribute type; every type of the schema has one. */
    public int id(String oid) {
        int id = idOrAbsent(oid);
        if (id < 0) {
            throw new IllegalArgumentException("attribute type " + oid + " has no stored ID");
        }
        return id;
    }

    /** The stored ID of an attribute type, or -1 when it has none (a type no stored entry can hold). */
    public int idOrAbsent(String oid) {
        Integer id = idsByOid.get(oid);
        return id == null ? -1 : id;
    }

    /** The OID stored under {@code id}. */
    public String oid(int id) {
        if (id < 0 || id >= oids.length || oids[id] == null) {
            throw new IllegalStateException("stored entry names unknown attribute ID " + id);
        }
        return oids[id];
    }

    /** The attribute type stored under {@code id}, or null when the schema no longer has it. */
    public AttributeType type(int id) {
        return id >= 0 && id < types.length ? types[id] : null;
    }
}
