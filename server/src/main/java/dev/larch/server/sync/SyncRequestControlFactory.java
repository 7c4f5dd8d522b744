package dev.larch.server.sync;

import org.apache.directory.api.asn1.util.Asn1Buffer;
import org.apache.directory.api.ldap.codec.api.AbstractControlFactory;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.extras.controls.syncrepl.syncRequest.SyncRequestValue;
import org.apache.directory.api.ldap.extras.controls.syncrepl_impl.SyncRequestValueFactory;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.controls.OpaqueControl;

/**
 * The request factory for the Sync Request control that leaves its value undecoded. The Apache factory the
 * standalone codec registers decodes the value while the PDU is decoded, and a malformed value then
 * fails the whole PDU (the server can only disconnect); with this one the search arrives with an
 * {@link OpaqueControl} and {@link SyncRequest#from} decodes it, so a bad value is answered with
 * protocolError on that search and the connection lives on.
 *
 * <p>Encoding (the Apache client in the same JVM shares the codec) accepts both an opaque control and
 * a {@link SyncRequestValue}, the latter through the Apache factory. Stateless and thread-safe.
 */
public final class SyncRequestControlFactory extends AbstractControlFactory<OpaqueControl> {

    private final SyncRequestValueFactory typed;

    private SyncRequestControlFactory(LdapApiService codec) {
        super(codec, SyncRequestValue.OID);
        this.typed = new SyncRequestValueFactory(codec);
    }

    /** Registers this factory as {@code codec}'s request factory for the Sync Request control; idempotent. */
    public static synchronized void install(LdapApiService codec) {
        if (!(codec.getRequestControlFactories().get(SyncRequestValue.OID) instanceof SyncRequestControlFactory)) {
            codec.registerRequestControl(new SyncRequestControlFactory(codec));
        }
    }

    @Override
    public Control newControl() {
        return new OpaqueControl(oid);
    }

    @Override
    public void encodeValue(Asn1Buffer buffer, Control control) {
        if (control instanceof SyncRequestValue value) {
            typed.encodeValue(buffer, value);
        } else if (control instanceof OpaqueControl opaque && opaque.hasEncodedValue()) {
            buffer.put(opaque.getEncodedValue());
        }
    }

    @Override
    public void decodeValue(Control control, byte[] controlBytes) {
        if (control instanceof OpaqueControl opaque) {
            opaque.setEncodedValue(controlBytes);
        }
    }
}
