package dev.larch.server.auth.policy;

import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyErrorEnum;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyRequestImpl;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyResponse;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.BindRequestImpl;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PpolicyControlsTest {
    @Test
    void theCodecTheServerUsesDecodesAndEncodesTheControl() {
        // The listener builds its decoder and encoder over this singleton (LdapListener).
        LdapApiService codec = LdapApiServiceFactory.getSingleton();
        assertTrue(codec.getRequestControlFactories().containsKey(PpolicyControls.OID));
        assertTrue(codec.getResponseControlFactories().containsKey(PpolicyControls.OID));
    }

    @Test
    void onlyAClientThatAskedGetsTheResponseControl() {
        BindRequest silent = new BindRequestImpl();
        ResultResponse quiet = silent.getResultResponse();
        PpolicyControls.error(silent, quiet, PasswordPolicyErrorEnum.PASSWORD_EXPIRED);
        assertNull(quiet.getControl(PpolicyControls.OID));

        BindRequest asking = new BindRequestImpl();
        asking.addControl(new PasswordPolicyRequestImpl());
        ResultResponse told = asking.getResultResponse();
        PpolicyControls.answer(asking, told, 120, -1, null);
        PasswordPolicyResponse control = (PasswordPolicyResponse) told.getControl(PpolicyControls.OID);
        assertEquals(120, control.getTimeBeforeExpiration());
        assertEquals(-1, control.getGraceAuthNRemaining());
        assertNull(control.getPasswordPolicyError());
    }
}
