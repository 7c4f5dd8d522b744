package dev.larch.jmh.data;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.entry.AttributeCatalog;
import dev.larch.server.entry.EntryCodec;
import dev.larch.server.entry.StoredEntry;
import org.apache.directory.api.ldap.model.entry.Entry;

/** One generated person in the forms the hot paths see it: schema-aware, serialized, stored. */
public final class SampleEntries {
    public static final int PERSON = 12_345;
    public static final long ID = 12_400;
    public static final long PARENT_ID = 15;

    private SampleEntries() {}

    /**
     * A codec numbering every attribute type of the schema, as a store does when it opens
     * (the benchmarks that need no store use this one).
     */
    public static EntryCodec codec(SchemaNormalizer schemaNormalizer) {
        Map<String, Integer> ids = new HashMap<>();
        schemaNormalizer.schema().getAttributeTypeRegistry().forEach(t -> ids.put(t.getOid(), ids.size() + 1));
        return new EntryCodec(new AttributeCatalog(schemaNormalizer.schema(), ids));
    }

    public static Entry schemaAware(SchemaNormalizer schemaNormalizer) {
        Entry client = People.person(PERSON);
        return schemaNormalizer.fromClient(schemaNormalizer.dn(client.getDn().getName()), client);
    }

    /** The serialized person in a direct buffer, as LMDB hands entries to the decoder. */
    public static ByteBuffer serialized(SchemaNormalizer schemaNormalizer) {
        byte[] bytes = codec(schemaNormalizer).encode(PARENT_ID, schemaAware(schemaNormalizer));
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length);
        direct.put(bytes).flip();
        return direct;
    }

    public static StoredEntry stored(SchemaNormalizer schemaNormalizer) {
        return codec(schemaNormalizer).decode(ID, serialized(schemaNormalizer), parentDn(schemaNormalizer));
    }

    /** The DN of the person's parent, which the store rebuilds from the parent chain on each read. */
    public static String parentDn(SchemaNormalizer schemaNormalizer) {
        return schemaAware(schemaNormalizer).getDn().getParent().getName();
    }
}
