package dev.larch.server.directory;

import dev.larch.schema.LarchSchema;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DnCacheTest {
    private static final SchemaManager SCHEMA = LarchSchema.standard();

    private static Dn dn(String name) throws Exception {
        return new Dn(SCHEMA, name);
    }

    /** A distinct DN of about {@code chars} characters. */
    private static String longDn(int i, int chars) {
        String cn = "cn=" + i + "-" + "x".repeat(Math.max(1, chars - 30));
        return cn + ",ou=people,dc=example,dc=com";
    }

    @Test
    void thousandsOfLargeDistinctDnsStayWithinTheByteBound() throws Exception {
        DnCache cache = new DnCache(256 * 1024);
        Dn parsed = dn("ou=people,dc=example,dc=com");
        for (int i = 0; i < 5_000; i++) {
            cache.put(longDn(i, 1000), parsed);
            assertTrue(cache.estimatedBytes() <= cache.maxBytes(), "over the bound after " + i + " puts");
        }
        assertTrue(cache.size() > 0);
        assertTrue(cache.size() <= 256 * 1024 / DnCache.estimatedBytes(longDn(0, 1000)));
    }

    @Test
    void dnsAboveThePerEntryLimitAreNotCached() throws Exception {
        DnCache cache = new DnCache(1 << 20);
        String huge = longDn(1, DnCache.MAX_CACHED_CHARS + 100);
        cache.put(huge, dn(huge));
        assertNull(cache.get(huge));
        assertEquals(0, cache.estimatedBytes());
    }

    @Test
    void aCachedDnIsReturnedAsTheSameInstance() throws Exception {
        DnCache cache = new DnCache(1 << 20);
        Dn parsed = dn("uid=a,ou=people,dc=example,dc=com");
        cache.put("uid=a,ou=people,dc=example,dc=com", parsed);
        cache.put("uid=a,ou=people,dc=example,dc=com", dn("uid=a,ou=people,dc=example,dc=com"));
        assertSame(parsed, cache.get("uid=a,ou=people,dc=example,dc=com"));
        assertEquals(DnCache.estimatedBytes("uid=a,ou=people,dc=example,dc=com"), cache.estimatedBytes());
    }

    @Test
    void aZeroBudgetCachesNothing() throws Exception {
        DnCache cache = new DnCache(0);
        cache.put("dc=com", dn("dc=com"));
        assertNull(cache.get("dc=com"));
    }

    @Test
    void schemaNormalizerCacheIsBoundedUnderManyLongDns() {
        SchemaNormalizer normalizer = new SchemaNormalizer(SCHEMA);
        for (int i = 0; i < 3_000; i++) {
            String name = longDn(i, 900);
            assertEquals(normalizer.dn(name), normalizer.dn(name));
        }
        // 3,000 DNs of 900 chars would be about 38 MB at the cache's estimate; the bound holds.
        assertTrue(normalizer.dnCacheBytes() <= SchemaNormalizer.DN_CACHE_BYTES);
    }
}
