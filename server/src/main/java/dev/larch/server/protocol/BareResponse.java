package dev.larch.server.protocol;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.MessageTypeEnum;
import org.apache.directory.api.ldap.model.message.Response;

/**
 * The message part of a response the server sends many of (one per entry, one per search), as the
 * API's {@code AbstractMessage} keeps it, but with its control and parameter maps made when the
 * first control or parameter is put rather than up front: most of these responses carry neither,
 * and the two empty hash maps cost 96 bytes a message.
 *
 * <p>Identity is equality (no handler compares responses). Not thread-safe: one operation builds
 * and sends it.
 */
public abstract class BareResponse implements Response {
    private final MessageTypeEnum type;
    private int id;
    /** Null until the first control. */
    private Map<String, Control> controls;
    /** Null until the first parameter. */
    private Map<Object, Object> parameters;

    protected BareResponse(int id, MessageTypeEnum type) {
        this.id = id;
        this.type = type;
    }

    @Override
    public MessageTypeEnum getType() {
        return type;
    }

    @Override
    public int getMessageId() {
        return id;
    }

    @Override
    public Message setMessageId(int messageId) {
        this.id = messageId;
        return this;
    }

    @Override
    public Map<String, Control> getControls() {
        return controls == null ? Map.of() : Collections.unmodifiableMap(controls);
    }

    @Override
    public Control getControl(String oid) {
        return controls == null ? null : controls.get(oid);
    }

    @Override
    public boolean hasControl(String oid) {
        return controls != null && controls.containsKey(oid);
    }

    @Override
    public Message addControl(Control control) {
        if (controls == null) {
            controls = new HashMap<>();
        }
        controls.put(control.getOid(), control);
        return this;
    }

    @Override
    public Message addAllControls(Control[] controlsToAdd) {
        for (Control control : controlsToAdd) {
            addControl(control);
        }
        return this;
    }

    @Override
    public Message removeControl(Control control) {
        if (controls != null) {
            controls.remove(control.getOid());
        }
        return this;
    }

    @Override
    public Object get(Object key) {
        return parameters == null ? null : parameters.get(key);
    }

    @Override
    public Object put(Object key, Object value) {
        if (parameters == null) {
            parameters = new HashMap<>();
        }
        return parameters.put(key, value);
    }

    /** As the API's messages describe themselves: type, ID, the part the subclass gives, the controls. */
    protected String describe(String body) {
        StringBuilder sb = new StringBuilder();
        sb.append("MessageType : ").append(type).append('\n');
        sb.append("Message ID : ").append(id).append('\n');
        sb.append(body);
        if (controls != null) {
            for (Control control : controls.values()) {
                sb.append(control);
            }
        }
        return sb.toString();
    }
}
