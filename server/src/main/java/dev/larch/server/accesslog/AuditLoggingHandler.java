package dev.larch.server.accesslog;

import java.time.Instant;
import java.util.Base64;

import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.protocol.ConnectionEvent;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.extras.extended.pwdModify.PasswordModifyRequest;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Modification;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.message.AddRequest;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ModifyDnRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.controls.ProxiedAuthz;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Wraps a {@link RequestHandler} and writes the audit log ({@code logging.audit-log-file}, as
 * OpenLDAP's auditlog overlay and 389-DS's audit log): for each add, modify, delete, modify DN and
 * Password Modify that succeeded, one LDIF change record (RFC 2849) headed by comment lines saying
 * when, which connection and operation, from which address, who was bound and whom the request
 * proxied for. Values of password attributes are written as {@value #MASK}; values that are not
 * printable ASCII are base64. Failed and refused writes are not changes: the access log has them.
 * Installed only when an audit log file is set. Thread-safe when the wrapped handler is.
 */
public final class AuditLoggingHandler implements RequestHandler {
    /** The SLF4J logger the records go to, at INFO; {@link AccessLogOutput} gives it its file. */
    public static final String LOGGER_NAME = "larch.audit";

    static final String MASK = "***";

    private static final Logger LOG = LoggerFactory.getLogger(LOGGER_NAME);

    private final RequestHandler next;
    private final PasswordAttributes passwords;

    public AuditLoggingHandler(RequestHandler next, PasswordAttributes passwords) {
        this.next = next;
        this.passwords = passwords;
    }

    @Override
    public void handle(Operation operation) {
        next.handle(operation);
    }

    @Override
    public void ended(Operation operation, ResultResponse response) {
        if (response != null && response.getLdapResult().getResultCode() == ResultCodeEnum.SUCCESS) {
            String record = record(operation.session(), operation.request(), Instant.now());
            if (record != null) {
                LOG.info(record);
            }
        }
        next.ended(operation, response);
    }

    @Override
    public void connectionEvent(Session session, ConnectionEvent event) {
        next.connectionEvent(session, event);
    }

    /** The change record of {@code request}, or null when it changes nothing. */
    String record(Session session, Request request, Instant when) {
        StringBuilder out = new StringBuilder(256);
        switch (request) {
            case AddRequest add -> {
                header(out, "add", session, request, when);
                line(out, "dn", add.getEntryDn().getName());
                out.append("changetype: add\n");
                for (Attribute attribute : add.getEntry()) {
                    values(out, attribute);
                }
            }
            case ModifyRequest modify -> {
                header(out, "modify", session, request, when);
                line(out, "dn", modify.getName().getName());
                out.append("changetype: modify\n");
                for (Modification change : modify.getModifications()) {
                    Attribute attribute = change.getAttribute();
                    out.append(operation(change))
                            .append(": ")
                            .append(attribute.getUpId())
                            .append('\n');
                    values(out, attribute);
                    out.append("-\n");
                }
            }
            case DeleteRequest delete -> {
                header(out, "delete", session, request, when);
                line(out, "dn", delete.getName().getName());
                out.append("changetype: delete\n");
            }
            case ModifyDnRequest rename -> {
                header(out, "modrdn", session, request, when);
                line(out, "dn", rename.getName().getName());
                out.append("changetype: modrdn\n");
                line(out, "newrdn", rename.getNewRdn().getName());
                out.append("deleteoldrdn: ")
                        .append(rename.getDeleteOldRdn() ? 1 : 0)
                        .append('\n');
                if (rename.getNewSuperior() != null) {
                    line(out, "newsuperior", rename.getNewSuperior().getName());
                }
            }
            case PasswordModifyRequest change -> {
                header(out, "passwordModify", session, request, when);
                byte[] identity = change.getUserIdentity();
                line(out, "dn", identity == null ? session.boundDn().getName() : new String(identity, UTF_8));
                out.append("changetype: modify\nreplace: userPassword\nuserPassword: ")
                        .append(MASK)
                        .append("\n-\n");
            }
            default -> {
                return null;
            }
        }
        return out.toString();
    }

    private static void header(StringBuilder out, String type, Session session, Request request, Instant when) {
        out.append("# ")
                .append(type)
                .append(' ')
                .append(when)
                .append(" conn=")
                .append(session.id())
                .append(" op=")
                .append(request.getMessageId())
                .append(" from=")
                .append(session.remoteAddress())
                .append('\n');
        out.append("# by: ")
                .append(
                        session.isAnonymous()
                                ? "anonymous"
                                : oneLine(session.boundDn().getName()))
                .append('\n');
        Control proxied = request.getControl(ProxiedAuthz.OID);
        if (proxied instanceof ProxiedAuthz authz) {
            out.append("# proxied-authz: ").append(oneLine(authz.getAuthzId())).append('\n');
        }
    }

    private static String operation(Modification change) {
        return switch (change.getOperation()) {
            case ADD_ATTRIBUTE -> "add";
            case REMOVE_ATTRIBUTE -> "delete";
            case REPLACE_ATTRIBUTE -> "replace";
            case INCREMENT_ATTRIBUTE -> "increment";
        };
    }

    private void values(StringBuilder out, Attribute attribute) {
        String name = attribute.getUpId();
        boolean masked = passwords.isProtectedDescription(name);
        for (Value value : attribute) {
            if (masked) {
                out.append(name).append(": ").append(MASK).append('\n');
            } else {
                line(out, name, value.isHumanReadable() ? value.getString().getBytes(UTF_8) : value.getBytes());
            }
        }
    }

    private static void line(StringBuilder out, String name, String value) {
        line(out, name, value == null ? new byte[0] : value.getBytes(UTF_8));
    }

    /** {@code name: value}, or {@code name:: base64} when the value is not a SAFE-STRING (RFC 2849). */
    private static void line(StringBuilder out, String name, byte[] value) {
        if (isSafe(value)) {
            out.append(name).append(": ").append(new String(value, UTF_8)).append('\n');
        } else {
            out.append(name)
                    .append(":: ")
                    .append(Base64.getEncoder().encodeToString(value))
                    .append('\n');
        }
    }

    private static boolean isSafe(byte[] value) {
        if (value.length == 0) {
            return true;
        }
        int first = value[0] & 0xff;
        if (first == ' ' || first == ':' || first == '<' || value[value.length - 1] == ' ') {
            return false;
        }
        for (byte b : value) {
            int c = b & 0xff;
            if (c == 0 || c == '\n' || c == '\r' || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    /** A comment stays one line whatever a client put in a DN. */
    private static String oneLine(String text) {
        return text == null ? "" : text.replace('\n', ' ').replace('\r', ' ');
    }
}
