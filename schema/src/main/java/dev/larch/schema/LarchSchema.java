package dev.larch.schema;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.schema.LdapSyntax;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.apache.directory.api.ldap.model.schema.registries.Schema;
import org.apache.directory.api.ldap.schema.loader.JarLdifSchemaLoader;
import org.apache.directory.api.ldap.schema.manager.impl.DefaultSchemaManager;

/**
 * Builds the schema the server enforces: the standard schemas bundled with the Apache LDAP API, then
 * the user's OpenLDAP-format files.
 *
 * <p>Loading takes about half a second on a cold JVM and around 150 ms once the classes are warm. A
 * server loads it once at start; tests that need no extra files should share {@link #standard()}.
 */
public final class LarchSchema {
    /**
     * The bundled schemas loaded, in dependency order. {@code nis} (RFC 2307: posixAccount,
     * posixGroup, ...) is disabled in the API's bundle and enabled here. {@code apache} supplies
     * entryUUID and entryDN. The ApacheDS server's own schemas (adsconfig, apachemeta, other) and the
     * rarely used optional ones stay out, so the subschema entry lists what a directory holds.
     */
    public static final List<String> STANDARD_SCHEMAS =
            List.of("system", "core", "cosine", "inetorgperson", "nis", "collective", "java", "pwdpolicy", "apache");

    /**
     * Larch's own definitions, loaded after the standard schemas: the {@code aci} operational
     * attribute (2.16.840.1.113730.3.1.55) of 389-DS and OpenDJ, as schema {@code larch-access}.
     */
    static final String LARCH_SCHEMA = "/dev/larch/schema/larch-access.schema";

    /**
     * The attribute types and object classes of the {@code cn=Monitor} subtree (OpenLDAP's back-monitor
     * names and OIDs) and the root DSE's {@code monitorContext}, as schema {@code larch-monitor}.
     */
    static final String MONITOR_SCHEMA = "/dev/larch/schema/larch-monitor.schema";

    /**
     * Larch's password policy rules beyond draft-behera ({@code larchPwdMinCharClasses} and the
     * auxiliary class {@code larchPwdPolicy} that holds it), as schema {@code larch-ppolicy}.
     */
    static final String PPOLICY_SCHEMA = "/dev/larch/schema/larch-ppolicy.schema";

    private LarchSchema() {}

    /**
     * A new, strict schema manager with the {@link #STANDARD_SCHEMAS} and the given files.
     *
     * @param extraSchemaFiles OpenLDAP {@code .schema} files ({@code objectidentifier},
     *     {@code attributetype} and {@code objectclass} definitions), loaded in order, each able to use
     *     what the standard schemas and the earlier files define; never null
     * @return a manager owned by the caller; it may be changed, and is safe to read from many threads
     *     once no thread changes it
     * @throws SchemaLoadException when a file is missing, does not parse, or defines something the
     *     schema rejects (an OID already taken, an unknown superior, syntax or attribute)
     */
    public static SchemaManager load(List<Path> extraSchemaFiles) throws SchemaLoadException {
        DefaultSchemaManager manager = standardManager();
        for (Path file : extraSchemaFiles) {
            SchemaFile.addTo(manager, file);
        }
        return settled(manager);
    }

    /**
     * One shared manager with the standard schemas only, built on first use. Callers must not change
     * it (no {@code add}, {@code delete}, {@code enable} or {@code load}); reading it from many threads
     * is safe.
     */
    public static SchemaManager standard() {
        return Shared.INSTANCE;
    }

    private static DefaultSchemaManager standardManager() throws SchemaLoadException {
        try {
            JarLdifSchemaLoader loader = new BundledSchemaLoader();
            DefaultSchemaManager manager = new DefaultSchemaManager(loader.getAllSchemas());
            Schema[] schemas = new Schema[STANDARD_SCHEMAS.size()];
            for (int i = 0; i < schemas.length; i++) {
                schemas[i] = loader.getSchema(STANDARD_SCHEMAS.get(i));
                // A disabled schema is skipped without complaint by loadWithDeps; enable them all.
                schemas[i].enable();
            }
            if (!manager.loadWithDeps(schemas) || !manager.getErrors().isEmpty() || !manager.isStrict()) {
                throw new SchemaLoadException("bundled schemas failed to load: " + manager.getErrors());
            }
            SchemaFile.addResource(manager, LARCH_SCHEMA);
            SchemaFile.addResource(manager, MONITOR_SCHEMA);
            SchemaFile.addResource(manager, PPOLICY_SCHEMA);
            return manager;
        } catch (LdapException | IOException e) {
            throw new SchemaLoadException("bundled schemas failed to load: " + e.getMessage(), e);
        }
    }

    /**
     * {@code manager} with every value the API computes on first read already computed, so that reading
     * it from many threads changes nothing.
     *
     * <p>{@link LdapSyntax#isHumanReadable()} reads the syntax's {@code X-NOT-HUMAN-READABLE} extension
     * the first time it is asked and then stores the answer, setting "answer known" before the answer
     * (whose default is false). A thread asking while another is between the two writes is told that
     * the syntax is binary. For the DN syntax that made a shared modifiersName value binary during an
     * import on two parse threads: every entry stamped with it after that stored modifiersName with no
     * value, and a slapd consumer of those entries crashed on the empty attribute.
     */
    static SchemaManager settled(SchemaManager manager) {
        for (LdapSyntax syntax : manager.getLdapSyntaxRegistry()) {
            syntax.isHumanReadable();
        }
        return manager;
    }

    /** Holder idiom: the JVM builds the instance once, on first use, and publishes it safely. */
    private static final class Shared {
        static final SchemaManager INSTANCE = build();

        private static SchemaManager build() {
            try {
                return settled(standardManager());
            } catch (SchemaLoadException e) {
                // Only a broken class path gets here; there is no user input involved.
                throw new IllegalStateException(e.getMessage(), e);
            }
        }
    }
}
