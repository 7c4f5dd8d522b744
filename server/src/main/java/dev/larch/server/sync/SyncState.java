package dev.larch.server.sync;

import org.apache.directory.api.ldap.extras.controls.syncrepl.syncState.SyncStateTypeEnum;

/**
 * The states of a Sync State control (RFC 4533 section 2.3). The Apache API's fifth, MODDN, is an
 * ApacheDS extension slapd does not know; a renamed entry is sent as {@link #MODIFY}.
 */
public enum SyncState {
    PRESENT(SyncStateTypeEnum.PRESENT),
    ADD(SyncStateTypeEnum.ADD),
    MODIFY(SyncStateTypeEnum.MODIFY),
    DELETE(SyncStateTypeEnum.DELETE);

    private final SyncStateTypeEnum apache;

    SyncState(SyncStateTypeEnum apache) {
        this.apache = apache;
    }

    SyncStateTypeEnum apache() {
        return apache;
    }
}
