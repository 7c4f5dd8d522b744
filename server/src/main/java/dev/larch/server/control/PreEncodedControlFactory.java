package dev.larch.server.control;

import org.apache.directory.api.asn1.util.Asn1Buffer;
import org.apache.directory.api.ldap.codec.api.AbstractControlFactory;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.controls.OpaqueControl;

/**
 * Lets the Apache encoder send a response control whose value the server encoded itself (the read
 * entry controls' SearchResultEntry): without a factory for its OID the encoder refuses the control.
 * Registered for responses only, so request controls of the same OID still arrive opaque.
 *
 * <p>Stateless and thread-safe.
 */
final class PreEncodedControlFactory extends AbstractControlFactory<OpaqueControl> {

    private PreEncodedControlFactory(LdapApiService codec, String oid) {
        super(codec, oid);
    }

    /** Registers a factory for each OID as a response control of {@code codec}, once; idempotent. */
    static synchronized void register(LdapApiService codec, String... oids) {
        for (String oid : oids) {
            if (!codec.getResponseControlFactories().containsKey(oid)) {
                codec.registerResponseControl(new PreEncodedControlFactory(codec, oid));
            }
        }
    }

    @Override
    public Control newControl() {
        return new OpaqueControl(oid);
    }

    /** Writes the value's octets; the encoder wraps them in the controlValue OCTET STRING. */
    @Override
    public void encodeValue(Asn1Buffer buffer, Control control) {
        if (control instanceof OpaqueControl opaque && opaque.hasEncodedValue()) {
            buffer.put(opaque.getEncodedValue());
        }
    }
}
