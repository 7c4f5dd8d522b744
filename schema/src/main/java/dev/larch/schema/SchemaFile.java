package dev.larch.schema;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.schema.AbstractSchemaObject;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.apache.directory.api.ldap.model.schema.parsers.OpenLdapSchemaParser;
import org.apache.directory.api.ldap.model.schema.registries.DefaultSchema;

/**
 * Adds the definitions of one OpenLDAP {@code .schema} file to a schema manager, as a schema of their
 * own named after the file ({@code larch-example.schema} becomes {@code larch-example}, which the
 * subschema entry shows as {@code X-SCHEMA}).
 *
 * <p>Attribute types go in before object classes, each in file order, so definitions may use earlier
 * ones. The file is read in the JVM's default charset (UTF-8 unless overridden), as the API's parser
 * does.
 */
final class SchemaFile {
    private SchemaFile() {}

    static void addTo(SchemaManager manager, Path file) throws SchemaLoadException {
        addParsed(manager, parse(file), file, schemaName(manager, file));
    }

    /** Adds a schema shipped on the class path (its name is the resource's file name without extension). */
    static void addResource(SchemaManager manager, String resource) throws SchemaLoadException {
        Path name = Path.of(resource.substring(resource.lastIndexOf('/') + 1));
        OpenLdapSchemaParser parser = new OpenLdapSchemaParser();
        try (InputStream in = SchemaFile.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new SchemaLoadException(resource + ": missing from the class path");
            }
            parser.parse(in);
        } catch (IOException | ParseException | LdapException e) {
            throw new SchemaLoadException(resource + ": " + message(e), e);
        }
        addParsed(manager, parser, name, schemaName(manager, name));
    }

    private static void addParsed(SchemaManager manager, OpenLdapSchemaParser parser, Path file, String schemaName)
            throws SchemaLoadException {
        try {
            manager.load(new DefaultSchema(null, schemaName, null, dependencies(manager)));
        } catch (LdapException e) {
            throw new SchemaLoadException(file + ": cannot register schema '" + schemaName + "': " + message(e), e);
        }
        List<AbstractSchemaObject> definitions = new ArrayList<>(parser.getAttributeTypes());
        definitions.addAll(parser.getObjectClasses());
        for (AbstractSchemaObject definition : definitions) {
            definition.setSchemaName(schemaName);
            add(manager, file, definition);
        }
    }

    private static OpenLdapSchemaParser parse(Path file) throws SchemaLoadException {
        OpenLdapSchemaParser parser = new OpenLdapSchemaParser();
        try (InputStream in = Files.newInputStream(file)) {
            parser.parse(in);
            return parser;
        } catch (NoSuchFileException e) {
            throw new SchemaLoadException(file + ": file not found", e);
        } catch (IOException e) {
            throw new SchemaLoadException(file + ": cannot read: " + e, e);
        } catch (ParseException | LdapException e) {
            throw new SchemaLoadException(file + ": " + message(e), e);
        }
    }

    private static void add(SchemaManager manager, Path file, AbstractSchemaObject definition)
            throws SchemaLoadException {
        String what = kind(definition) + " " + definition.getOid()
                + (definition.getName() == null ? "" : " (" + definition.getName() + ")");
        try {
            if (manager.add(definition)) {
                return;
            }
            List<Throwable> errors = manager.getErrors();
            String reason = errors.isEmpty() ? "rejected by the schema" : message(errors.get(0));
            throw new SchemaLoadException(file + ": " + what + ": " + reason);
        } catch (LdapException e) {
            throw new SchemaLoadException(file + ": " + what + ": " + message(e), e);
        }
    }

    /** The file name without extension; it must not clash with a schema already loaded. */
    private static String schemaName(SchemaManager manager, Path file) throws SchemaLoadException {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            name = name.substring(0, dot);
        }
        name = name.toLowerCase(Locale.ROOT);
        if (manager.isSchemaLoaded(name)) {
            throw new SchemaLoadException(file + ": a schema named '" + name + "' is already loaded; rename the file");
        }
        return name;
    }

    private static String[] dependencies(SchemaManager manager) {
        return manager.getRegistries().getLoadedSchemas().keySet().toArray(String[]::new);
    }

    private static String kind(AbstractSchemaObject definition) {
        return switch (definition.getObjectType()) {
            case ATTRIBUTE_TYPE -> "attributetype";
            case OBJECT_CLASS -> "objectclass";
            default -> definition.getObjectType().name();
        };
    }

    /**
     * The API's message on one line, without its {@code ERR_13806_SOMETHING} code prefix, which means
     * nothing to a user.
     */
    static String message(Throwable e) {
        String text = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        text = text.replaceAll("\\s+", " ").strip();
        return text.replaceFirst("^ERR_\\d+_[A-Z0-9_]+ ", "");
    }
}
