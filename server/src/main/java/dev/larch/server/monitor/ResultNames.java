package dev.larch.server.monitor;

import dev.larch.server.protocol.WireResultCode;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/** The names of result codes as RFC 4511 and the extensions spell them ({@code success}, {@code busy}). */
final class ResultNames {
    private ResultNames() {}

    /** The code's name; {@code code <n>} for one no specification Larch knows names. */
    static String of(int code) {
        String extension = switch (code) {
            case WireResultCode.ASSERTION_FAILED -> "assertionFailed";
            case WireResultCode.AUTHORIZATION_DENIED -> "authorizationDenied";
            case WireResultCode.NO_OPERATION -> "noOperation";
            default -> null;
        };
        if (extension != null) {
            return extension;
        }
        ResultCodeEnum known = ResultCodeEnum.getResultCode(code);
        if (known != null && known.getResultCode() == code) {
            return known.getMessage();
        }
        return "code " + code;
    }
}
