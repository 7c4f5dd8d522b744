package dev.larch.server.read;

import dev.larch.server.access.AccessControl;
import dev.larch.server.control.AssertionControl;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.message.CompareRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;

import static java.nio.charset.StandardCharsets.UTF_8;

/** Compare (RFC 4511 section 4.10) with the attribute's equality rule. */
public final class CompareHandler {
    private final Directory directory;
    private final AccessControl access;

    private final AssertionControl assertionControl;

    public CompareHandler(Directory directory, AccessControl access) {
        this.directory = directory;
        this.access = access;
        this.assertionControl = new AssertionControl(
                new FilterCompiler(directory.schemaNormalizer().schema()), access);
    }

    public void handle(Operation op, CompareRequest request) {
        Dn dn = directory.schemaNormalizer().dn(request.getName());
        AttributeType type = directory.schemaNormalizer().type(request.getAttributeId());
        if (type.getEquality() == null) {
            throw new ResultCodeException(
                    ResultCodeEnum.INAPPROPRIATE_MATCHING, type.getName() + " has no equality rule");
        }
        Value assertion = directory.schemaNormalizer().value(type, request.getAssertionValue());
        byte[] normalized =
                assertion.isHumanReadable() ? assertion.getNormalized().getBytes(UTF_8) : assertion.getBytes();
        boolean matched;
        try (ReadTxn txn = directory.store().read()) {
            // Missing or hidden from the client: the same noSuchObject, naming only an ancestor it may read.
            StoredEntry entry = directory.load(txn, access.requireVisible(op.session(), txn, dn));
            assertionControl.require(request, op.session(), txn, entry);
            access.requireCompare(op.session(), txn, entry, type.getOid(), type.getName());
            StoredAttribute attribute = entry.attribute(type.getOid());
            if (attribute == null) {
                throw new ResultCodeException(ResultCodeEnum.NO_SUCH_ATTRIBUTE, "entry has no " + type.getName());
            }
            matched = attribute.containsNormalized(normalized);
        }
        ResultResponse response = request.getResultResponse();
        response.getLdapResult().setResultCode(matched ? ResultCodeEnum.COMPARE_TRUE : ResultCodeEnum.COMPARE_FALSE);
        op.complete(response);
    }
}
