// Settings → Tools: one MCP server's pre-registered OAuth client, for servers without dynamic client registration:
// its Client ID (a plain field) and Client secret (a key, masked until shown; kept with the keys, never exported).
import { t } from "../../i18n/index.ts";
import { FieldError, TextField } from "../fields/text-field.tsx";

/** The Client ID and Client secret fields of the server whose row key is `rowKey`. */
export function McpOAuthClientFields(props: {
  rowKey: string;
  clientId: string;
  clientSecret: string;
  onClientId: (value: string) => void;
  onClientSecret: (value: string) => void;
  clientIdError: string | undefined;
  clientSecretError: string | undefined;
}) {
  const id = () => `${props.rowKey}-client-id`;
  return (
    <>
      <div class="field">
        <label for={id()}>{t("tools.clientId")}</label>
        <input
          id={id()}
          autocomplete="off"
          spellcheck={false}
          placeholder={t("web.optional")}
          aria-invalid={props.clientIdError ? "true" : undefined}
          aria-describedby={props.clientIdError ? `${id()}-error` : undefined}
          value={props.clientId}
          onInput={(event) => props.onClientId(event.currentTarget.value)}
        />
        <FieldError id={`${id()}-error`} error={props.clientIdError} />
      </div>
      <TextField
        id={`${props.rowKey}-client-secret`}
        label={t("tools.clientSecret")}
        kind="key"
        placeholder={t("web.optional")}
        value={props.clientSecret}
        onInput={props.onClientSecret}
        error={props.clientSecretError}
        hint={t("tools.clientHint")}
      />
    </>
  );
}
