package dev.larch.bench.mix;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;

/**
 * Reads and validates mix files (JSON; see client-bench/README.md for the format).
 *
 * <p>The names in {@link #BUILT_IN} name the built-in mixes, shipped as resources in the
 * same format; anything else is a path. Every problem is reported as an {@link InvalidMixException}
 * whose message names the mix and the field to fix.
 */
public final class MixLoader {
    public static final List<String> BUILT_IN =
            List.of("messaging", "addressing", "modify", "mixed", "authrate", "churn");
    private static final List<String> KNOWN_TYPES =
            Arrays.stream(OpType.values()).map(OpType::label).toList();
    /** Attributes that lookups search by or answers are checked on; a modify must leave them alone. */
    private static final Set<String> KEY_ATTRIBUTES = Set.of(
            "cn",
            "sn",
            "surname",
            "givenname",
            "gn",
            "mail",
            "uid",
            "member",
            "uniquemember",
            "objectclass",
            "userpassword");

    private static final double SHARE_TOLERANCE = 1e-6;

    private final ObjectMapper mapper = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY);

    /** Loads a built-in mix by name or a mix file by path. */
    public Mix load(String nameOrPath) {
        if (BUILT_IN.contains(nameOrPath)) {
            String resource = "/dev/larch/bench/mix/" + nameOrPath + ".json";
            try (InputStream in = MixLoader.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("built-in mix missing from the jar: " + resource);
                }
                return parse(in.readAllBytes(), "built-in:" + nameOrPath);
            } catch (IOException e) {
                throw new IllegalStateException("cannot read built-in mix " + resource, e);
            }
        }
        Path path = Path.of(nameOrPath);
        try {
            return parse(Files.readAllBytes(path), path.toString());
        } catch (NoSuchFileException e) {
            throw new InvalidMixException(
                    "mix file not found: " + nameOrPath + " (built-in mixes: " + String.join(", ", BUILT_IN) + ")");
        } catch (IOException e) {
            throw new InvalidMixException("cannot read mix file " + nameOrPath + ": " + e.getMessage());
        }
    }

    /** Parses and validates mix bytes; {@code source} only labels messages and results. */
    public Mix parse(byte[] bytes, String source) {
        RawMix raw;
        try {
            raw = mapper.readValue(bytes, RawMix.class);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
            throw new InvalidMixException("mix " + source + " is not valid: " + e.getOriginalMessage() + where);
        } catch (IOException e) {
            throw new InvalidMixException("mix " + source + " cannot be read: " + e.getMessage());
        }
        if (raw == null) {
            throw new InvalidMixException("mix " + source + " is empty");
        }
        String label = "mix " + source;
        if (raw.operations == null || raw.operations.isEmpty()) {
            throw new InvalidMixException(label + " has no operations");
        }
        List<OperationSpec> ops = new ArrayList<>();
        Set<String> names = new HashSet<>();
        double total = 0;
        for (int i = 0; i < raw.operations.size(); i++) {
            RawOperation op = raw.operations.get(i);
            String opLabel = label + ", operation " + (op.name == null ? "#" + (i + 1) : "'" + op.name + "'");
            OperationSpec spec = operation(op, opLabel);
            if (!names.add(spec.name())) {
                throw new InvalidMixException(label + " names two operations '" + spec.name() + "'");
            }
            total += spec.share();
            ops.add(spec);
        }
        checkBindsAndWrites(ops, label);
        if (Math.abs(total - 100.0) > SHARE_TOLERANCE) {
            throw new InvalidMixException(
                    label + ": operation shares add up to " + String.format(Locale.ROOT, "%.6g", total) + ", not 100");
        }
        return new Mix(
                raw.name == null ? source : raw.name,
                raw.description == null ? "" : raw.description,
                source,
                sha256(bytes),
                connection(raw.connection, label),
                List.copyOf(ops));
    }

    private static OperationSpec operation(RawOperation op, String label) {
        if (op.name == null || op.name.isBlank()) {
            throw new InvalidMixException(label + " has no name");
        }
        String typeName = op.type == null ? "search" : op.type;
        OpType type = OpType.byLabel(typeName)
                .orElseThrow(() -> new InvalidMixException(label + " has unknown operation type '" + typeName
                        + "' (known: " + String.join(", ", KNOWN_TYPES) + ")"));
        if (op.share == null || op.share < 0 || op.share.isNaN()) {
            throw new InvalidMixException(label + " needs a share between 0 and 100");
        }
        for (String field : op.fieldsSet()) {
            if (!allowedFields(type).contains(field)) {
                throw new InvalidMixException(label + ": type " + type.label() + " takes no '" + field + "' (it takes: "
                        + String.join(", ", allowedFields(type)) + ")");
            }
        }
        try {
            return switch (type) {
                case SEARCH -> search(op, label);
                case MODIFY -> modify(op, label);
                case ADD, DELETE, MODRDN ->
                    new OperationSpec(
                            op.name,
                            op.share,
                            Template.parse("${personDn}"), // the person whose container gets the new entry
                            SearchScope.BASE,
                            List.of(),
                            List.of(),
                            Expectation.ANY,
                            List.of(),
                            0,
                            type,
                            null,
                            null,
                            null,
                            ResultCode.SUCCESS_INT_VALUE);
                case COMPARE -> compare(op, label);
                case BIND, AUTHENTICATE, CHURN -> bind(op, type, label);
            };
        } catch (InvalidMixException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new InvalidMixException(label + ": " + e.getMessage());
        }
    }

    /** The fields each type reads; any other field set is a mistake worth stopping for. */
    private static List<String> allowedFields(OpType type) {
        List<String> common = List.of("name", "type", "share");
        List<String> own = switch (type) {
            case SEARCH -> List.of("base", "scope", "filter", "attributes", "expect", "requireAttribute", "sizeLimit");
            case MODIFY -> List.of("base", "attribute", "value");
            case ADD, DELETE, MODRDN -> List.of();
            case COMPARE -> List.of("base", "attribute", "value", "expect");
            case BIND -> List.of("base", "password", "expect");
            case AUTHENTICATE, CHURN -> List.of("base", "password", "attributes", "requireAttribute");
        };
        List<String> all = new ArrayList<>(common);
        all.addAll(own);
        return all;
    }

    private static OperationSpec search(RawOperation op, String label) {
        if (op.filter == null || op.filter.isEmpty()) {
            throw new InvalidMixException(label + " needs a filter");
        }
        if (op.expect == null) {
            throw new InvalidMixException(label + " needs expect: one, none, some or any");
        }
        Expectation expect;
        try {
            expect = Expectation.valueOf(op.expect.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidMixException(label + " has unknown expect '" + op.expect + "' (one, none, some, any)");
        }
        Template base = Template.parse(op.base == null ? "${suffix}" : op.base);
        List<Template> filters = new ArrayList<>();
        for (String f : op.filter) {
            Template t = Template.parse(f);
            try {
                // A trial rendering with a harmless value proves the filter's syntax before any load.
                Filter.create(t.render(v -> "x", s -> s));
            } catch (LDAPException e) {
                throw new InvalidMixException(label + " has an invalid filter: " + e.getMessage());
            }
            filters.add(t);
        }
        int sizeLimit = op.sizeLimit == null ? 0 : op.sizeLimit;
        if (sizeLimit < 0) {
            throw new InvalidMixException(label + " has a negative sizeLimit");
        }
        return OperationSpec.search(
                op.name,
                op.share,
                base,
                scope(op.scope, label),
                List.copyOf(filters),
                op.attributes == null ? List.of() : List.copyOf(op.attributes),
                expect,
                op.requireAttribute == null ? List.of() : List.copyOf(op.requireAttribute),
                sizeLimit);
    }

    private static OperationSpec modify(RawOperation op, String label) {
        String attribute = op.attribute == null ? "description" : op.attribute;
        if (KEY_ATTRIBUTES.contains(attribute.toLowerCase(Locale.ROOT))) {
            throw new InvalidMixException(label + " may not modify '" + attribute
                    + "': other operations look people up by it or check it; pick a non-key attribute"
                    + " such as description or telephoneNumber");
        }
        return nonSearch(
                op,
                OpType.MODIFY,
                "${personDn}",
                attribute,
                Template.parse(op.value == null ? "${random}" : op.value),
                null,
                ResultCode.SUCCESS_INT_VALUE);
    }

    private static OperationSpec compare(RawOperation op, String label) {
        String expect = op.expect == null ? "true" : op.expect;
        int code = switch (expect) {
            case "true", "compareTrue" -> ResultCode.COMPARE_TRUE_INT_VALUE;
            case "false", "compareFalse" -> ResultCode.COMPARE_FALSE_INT_VALUE;
            default -> throw new InvalidMixException(label + " has unknown expect '" + expect + "' (true, false)");
        };
        String attribute = op.attribute == null ? "mail" : op.attribute;
        if (op.value == null && Variable.byPlaceholder(attribute).isEmpty()) {
            throw new InvalidMixException(label + " compares '" + attribute
                    + "', which has no placeholder of that name: give a value (e.g. a literal or ${random})");
        }
        return nonSearch(
                op,
                OpType.COMPARE,
                "${personDn}",
                attribute,
                Template.parse(op.value == null ? "${" + attribute + "}" : op.value),
                null,
                code);
    }

    private static OperationSpec bind(RawOperation op, OpType type, String label) {
        String expect = op.expect == null ? "success" : op.expect;
        int code = switch (expect) {
            case "success" -> ResultCode.SUCCESS_INT_VALUE;
            case "invalidCredentials" -> ResultCode.INVALID_CREDENTIALS_INT_VALUE;
            default ->
                throw new InvalidMixException(
                        label + " has unknown expect '" + expect + "' (success, invalidCredentials)");
        };
        OperationSpec spec = nonSearch(
                op,
                type,
                "${personDn}",
                null,
                null,
                Template.parse(op.password == null ? "${uid}" : op.password),
                code);
        if (type == OpType.BIND) {
            return spec;
        }
        // authenticate and churn read the bound person's own entry
        return new OperationSpec(
                spec.name(),
                spec.share(),
                spec.base(),
                SearchScope.BASE,
                List.of(Template.parse("(objectClass=*)")),
                op.attributes == null ? List.of() : List.copyOf(op.attributes),
                Expectation.ONE,
                op.requireAttribute == null ? List.of() : List.copyOf(op.requireAttribute),
                0,
                type,
                null,
                null,
                spec.password(),
                code);
    }

    private static OperationSpec nonSearch(
            RawOperation op,
            OpType type,
            String defaultBase,
            String attribute,
            Template value,
            Template password,
            int expectedResultCode) {
        return new OperationSpec(
                op.name,
                op.share,
                Template.parse(op.base == null ? defaultBase : op.base),
                SearchScope.BASE,
                List.of(),
                List.of(),
                Expectation.ANY,
                List.of(),
                0,
                type,
                attribute,
                value,
                password,
                expectedResultCode);
    }

    /**
     * A bind changes who the worker's connection is, so the writes after it would run as a person
     * without write rights; churn binds on a connection of its own and may be mixed with anything.
     */
    private static void checkBindsAndWrites(List<OperationSpec> ops, String label) {
        OperationSpec bind = null;
        OperationSpec write = null;
        for (OperationSpec op : ops) {
            if (op.share() > 0 && op.type().rebindsConnection()) {
                bind = op;
            }
            if (op.share() > 0 && op.type().writes()) {
                write = op;
            }
        }
        if (bind != null && write != null) {
            throw new InvalidMixException(
                    label + ": '" + bind.name() + "' (" + bind.type().label()
                            + ") rebinds the connection as a person, so '" + write.name() + "' ("
                            + write.type().label()
                            + ") would run without write rights; use type churn for binds on their own connection");
        }
    }

    private static SearchScope scope(String scope, String label) {
        String s = scope == null ? "sub" : scope.toLowerCase(Locale.ROOT);
        return switch (s) {
            case "base" -> SearchScope.BASE;
            case "one", "onelevel" -> SearchScope.ONE;
            case "sub", "subtree" -> SearchScope.SUB;
            default -> throw new InvalidMixException(label + " has unknown scope '" + scope + "' (base, one, sub)");
        };
    }

    private static ConnectionModel connection(RawConnection c, String label) {
        if (c == null || c.model == null || c.model.equals("persistent")) {
            return ConnectionModel.PERSISTENT;
        }
        if (!c.model.equals("per-lookup")) {
            throw new InvalidMixException(
                    label + " has unknown connection model '" + c.model + "' (persistent, per-lookup)");
        }
        int min = c.minOpsPerConnection == null ? 1 : c.minOpsPerConnection;
        int max = c.maxOpsPerConnection == null ? min : c.maxOpsPerConnection;
        if (min < 1 || max < min) {
            throw new InvalidMixException(label + ": need 1 <= minOpsPerConnection <= maxOpsPerConnection");
        }
        return new ConnectionModel(true, min, max);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }

    /** The file as written; public fields so Jackson needs no setters. */
    static final class RawMix {
        public String name;
        public String description;
        public RawConnection connection;
        public List<RawOperation> operations;
    }

    static final class RawConnection {
        public String model;
        public Integer minOpsPerConnection;
        public Integer maxOpsPerConnection;
    }

    static final class RawOperation {
        public String name;
        public String type;
        public Double share;
        public String base;
        public String scope;
        public List<String> filter;
        public List<String> attributes;
        public String expect;
        public List<String> requireAttribute;
        public Integer sizeLimit;
        public String attribute;
        public String value;
        public String password;

        /** The names of the fields this operation sets, for the per-type check. */
        List<String> fieldsSet() {
            List<String> set = new ArrayList<>(List.of("name", "share"));
            Object[] values = {
                type, base, scope, filter, attributes, expect, requireAttribute, sizeLimit, attribute, value, password
            };
            String[] names = {
                "type",
                "base",
                "scope",
                "filter",
                "attributes",
                "expect",
                "requireAttribute",
                "sizeLimit",
                "attribute",
                "value",
                "password"
            };
            for (int i = 0; i < names.length; i++) {
                if (values[i] != null) {
                    set.add(names[i]);
                }
            }
            return set;
        }
    }
}
