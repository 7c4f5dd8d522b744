package dev.larch.server.auth;

import org.apache.directory.api.ldap.model.name.Dn;

/** Bind credentials as the configuration sets them: the admin's hashed password and the cleartext policy. */
public final class ConfiguredCredentials implements Credentials {
    private final Dn adminDn;
    private final byte[] adminHash;
    private final boolean allowCleartext;

    public ConfiguredCredentials(Dn adminDn, byte[] adminHash, boolean allowCleartext) {
        this.adminDn = adminDn;
        this.adminHash = adminHash.clone();
        this.allowCleartext = allowCleartext;
    }

    @Override
    public Dn adminDn() {
        return adminDn;
    }

    @Override
    public boolean isAdminPassword(byte[] presented) {
        return PasswordSchemes.verify(adminHash, presented, false);
    }

    @Override
    public boolean matches(byte[] storedUserPassword, byte[] presented) {
        return PasswordSchemes.verify(storedUserPassword, presented, allowCleartext);
    }
}
