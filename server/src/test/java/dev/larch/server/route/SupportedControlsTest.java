package dev.larch.server.route;

import java.util.List;

import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.message.AddRequestImpl;
import org.apache.directory.api.ldap.model.message.MessageTypeEnum;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.controls.OpaqueControl;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SupportedControlsTest {
    private static final String SEARCH_ONLY = "1.2.3.4";
    private static final String EVERYWHERE = "1.2.3.5";

    private final SupportedControls controls = SupportedControls.builder()
            .offer(SEARCH_ONLY, MessageTypeEnum.SEARCH_REQUEST)
            .offer(EVERYWHERE, SupportedControls.ALL_OPERATIONS)
            .build();

    @Test
    void listsOfferedOidsInOrder() {
        assertEquals(List.of(SEARCH_ONLY, EVERYWHERE), controls.oids());
        assertTrue(controls.applies(SEARCH_ONLY, MessageTypeEnum.SEARCH_REQUEST));
        assertFalse(controls.applies(SEARCH_ONLY, MessageTypeEnum.ADD_REQUEST));
        assertTrue(controls.applies(EVERYWHERE, MessageTypeEnum.MODIFYDN_REQUEST));
    }

    @Test
    void criticalUnknownControlIsRefusedNamingItsOid() {
        SearchRequestImpl search = new SearchRequestImpl();
        search.addControl(new OpaqueControl("1.9.9", true));
        ResultCodeException refused = assertThrows(ResultCodeException.class, () -> controls.screen(search));
        assertEquals(ResultCodeEnum.UNAVAILABLE_CRITICAL_EXTENSION, refused.code());
        assertTrue(refused.getMessage().contains("1.9.9"), refused.getMessage());
    }

    @Test
    void criticalControlOnAnOperationItDoesNotApplyToIsRefused() {
        AddRequestImpl add = new AddRequestImpl();
        add.addControl(new OpaqueControl(SEARCH_ONLY, true));
        ResultCodeException refused = assertThrows(ResultCodeException.class, () -> controls.screen(add));
        assertTrue(refused.getMessage().contains("add requests"), refused.getMessage());
    }

    @Test
    void nonCriticalAndOfferedControlsPass() {
        AddRequestImpl add = new AddRequestImpl();
        add.addControl(new OpaqueControl(SEARCH_ONLY, false));
        add.addControl(new OpaqueControl("1.9.9", false));
        add.addControl(new OpaqueControl(EVERYWHERE, true));
        assertDoesNotThrow(() -> controls.screen(add));
    }
}
