{{/* Release-wide name prefix: the release name, suffixed with -lws unless it already says lws. */}}
{{- define "lws.fullname" -}}
{{- if contains "lws" .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-lws" .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Name of one service's objects. Args: root, name. */}}
{{- define "lws.serviceName" -}}
{{- printf "%s-%s" (include "lws.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "lws.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: lws
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: lws
{{- end -}}

{{/* Args: root, name. */}}
{{- define "lws.selectorLabels" -}}
app.kubernetes.io/name: lws
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* Args: root, name. */}}
{{- define "lws.serviceLabels" -}}
{{ include "lws.labels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* Args: root, svc. */}}
{{- define "lws.image" -}}
{{- $registry := .root.Values.image.registry -}}
{{- $tag := .svc.image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- if $registry -}}
{{- printf "%s/%s:%s" (trimSuffix "/" $registry) .svc.image.repository $tag -}}
{{- else -}}
{{- printf "%s:%s" .svc.image.repository $tag -}}
{{- end -}}
{{- end -}}

{{- define "lws.connectionsSecretName" -}}
{{- printf "%s-connections" (include "lws.fullname" .) -}}
{{- end -}}

{{- define "lws.migrationsSecretName" -}}
{{- printf "%s-migrations" (include "lws.fullname" .) -}}
{{- end -}}

{{- define "lws.pinHashKeySecretName" -}}
{{- printf "%s-identity-keys" (include "lws.fullname" .) -}}
{{- end -}}

{{- define "lws.configMapName" -}}
{{- printf "%s-config" (include "lws.fullname" .) -}}
{{- end -}}

{{/* Args: root, name. */}}
{{- define "lws.serviceSecretName" -}}
{{- printf "%s-env" (include "lws.serviceName" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Common configuration with empty values left out, as a dict. */}}
{{- define "lws.commonConfig" -}}
{{- $out := dict -}}
{{- range $k, $v := .Values.config -}}
{{- if ne (toString $v) "" -}}
{{- $_ := set $out $k (toString $v) -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/*
One endpoint variable from the chart's Secret (url given) or from an existing Secret.
Args: conn (postgresql|nats|redis values), envName, secretName (the chart Secret to use).
*/}}
{{- define "lws.endpointEnv" -}}
- name: {{ .envName }}
  valueFrom:
    secretKeyRef:
      {{- if .conn.url }}
      name: {{ .secretName }}
      key: {{ .envName }}
      {{- else }}
      name: {{ .conn.existingSecret }}
      key: {{ .conn.existingSecretKey | default .envName }}
      {{- end }}
{{- end -}}

{{/*
Endpoint variables a service needs. Args: root, svc, secretName.
*/}}
{{- define "lws.endpointsEnv" -}}
{{- $v := .root.Values -}}
{{- if .svc.database }}
{{ include "lws.endpointEnv" (dict "conn" $v.postgresql "envName" "DATABASE_URL" "secretName" .secretName) }}
{{- end }}
{{ include "lws.endpointEnv" (dict "conn" $v.nats "envName" "NATS_URL" "secretName" .secretName) }}
{{- if .svc.redis }}
{{ include "lws.endpointEnv" (dict "conn" $v.redis "envName" "REDIS_URL" "secretName" .secretName) }}
{{- end }}
{{- end -}}

{{/* The full env list of a service container. Args: root, name, svc. */}}
{{- define "lws.containerEnv" -}}
{{- $root := .root -}}
{{- $name := .name -}}
{{- $svc := .svc -}}
{{- $env := $svc.env | default dict -}}
- name: HOST
  value: "0.0.0.0"
- name: {{ $svc.portEnv }}
  value: {{ $svc.port | toString | quote }}
{{- if $svc.metricsPort }}
- name: HEALTH_PORT
  value: {{ $svc.metricsPort | toString | quote }}
{{- end }}
- name: OTEL_SERVICE_NAME
  value: {{ printf "lws-%s" $name | quote }}
{{- if and $root.Values.ingress.enabled (eq $root.Values.ingress.service $name) (not (hasKey $env "TRUST_PROXY")) }}
- name: TRUST_PROXY
  value: "true"
{{- end }}
{{- include "lws.endpointsEnv" (dict "root" $root "svc" $svc "secretName" (include "lws.connectionsSecretName" $root)) }}
{{- if eq $name "identity" }}
- name: PIN_HASH_KEY
  valueFrom:
    secretKeyRef:
      {{- if $root.Values.pinHashKey.value }}
      name: {{ include "lws.pinHashKeySecretName" $root }}
      key: PIN_HASH_KEY
      {{- else }}
      name: {{ $root.Values.pinHashKey.existingSecret }}
      key: {{ $root.Values.pinHashKey.existingSecretKey | default "PIN_HASH_KEY" }}
      {{- end }}
{{- end }}
{{- range $k, $v := $env }}
{{- if ne (toString $v) "" }}
- name: {{ $k }}
  value: {{ $v | toString | quote }}
{{- end }}
{{- end }}
{{- range $k, $v := $svc.secretEnv }}
{{- if ne (toString $v) "" }}
- name: {{ $k }}
  valueFrom:
    secretKeyRef:
      name: {{ include "lws.serviceSecretName" (dict "root" $root "name" $name) }}
      key: {{ $k }}
{{- end }}
{{- end }}
{{- range $k, $ref := $svc.existingSecretEnv }}
- name: {{ $k }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.name }}
      key: {{ $ref.key | default $k }}
      {{- if $ref.optional }}
      optional: true
      {{- end }}
{{- end }}
{{- end -}}

{{/*
Render-time checks: a typo in a variable name or a missing endpoint stops the
release here, with the name, instead of as a crash loop in the cluster.
*/}}
{{- define "lws.validate" -}}
{{- $root := . -}}
{{- $vars := .Files.Get "config-vars.json" | fromJson -}}
{{- $common := $vars.common -}}
{{- $reserved := list "HOST" "PORT" "HEALTH_PORT" "DATABASE_URL" "NATS_URL" "REDIS_URL" "OTEL_SERVICE_NAME" "PIN_HASH_KEY" -}}
{{- /* A movable clock could hide a missed check-in: it exists for tests, never in a deployment. */ -}}
{{- $testOnly := list "LWS_TEST_CLOCK" -}}
{{- range $k, $_ := .Values.config -}}
{{- if has $k $testOnly -}}
{{- fail (printf "config.%s: the test clock is for tests only; a deployment never sets it" $k) -}}
{{- end -}}
{{- if not (has $k $common) -}}
{{- fail (printf "config.%s: not a common LWS variable (see charts/lws/config-vars.json)" $k) -}}
{{- end -}}
{{- if has $k $reserved -}}
{{- fail (printf "config.%s: set by the chart, remove it from config" $k) -}}
{{- end -}}
{{- end -}}
{{- $needsDatabase := false -}}
{{- $needsRedis := false -}}
{{- range $name, $svc := .Values.services -}}
{{- if $svc.enabled -}}
{{- $allowed := concat $common (get $vars $name | default list) -}}
{{- if not (has $svc.portEnv (list "PORT" "HEALTH_PORT")) -}}
{{- fail (printf "services.%s.portEnv: must be PORT or HEALTH_PORT" $name) -}}
{{- end -}}
{{- if not (regexMatch "^[1-9][0-9]{0,4}$" (toString $svc.port)) -}}
{{- fail (printf "services.%s.port: must be a port number" $name) -}}
{{- end -}}
{{- $seen := dict -}}
{{- range $source := list "env" "secretEnv" "existingSecretEnv" -}}
{{- range $k, $_ := (get $svc $source | default dict) -}}
{{- if has $k $testOnly -}}
{{- fail (printf "services.%s.%s.%s: the test clock is for tests only; a deployment never sets it" $name $source $k) -}}
{{- end -}}
{{- if not (has $k $allowed) -}}
{{- fail (printf "services.%s.%s.%s: not a variable of the %s service (see charts/lws/config-vars.json)" $name $source $k $name) -}}
{{- end -}}
{{- if has $k $reserved -}}
{{- fail (printf "services.%s.%s.%s: set by the chart from its own values" $name $source $k) -}}
{{- end -}}
{{- if hasKey $seen $k -}}
{{- fail (printf "services.%s: %s is set in both %s and %s" $name $k (get $seen $k) $source) -}}
{{- end -}}
{{- $_ := set $seen $k $source -}}
{{- end -}}
{{- end -}}
{{- range $k, $ref := ($svc.existingSecretEnv | default dict) -}}
{{- if not (and (kindIs "map" $ref) $ref.name) -}}
{{- fail (printf "services.%s.existingSecretEnv.%s: needs {name: <secret>, key: <key>}" $name $k) -}}
{{- end -}}
{{- end -}}
{{- if $svc.database -}}{{- $needsDatabase = true -}}{{- end -}}
{{- if $svc.redis -}}{{- $needsRedis = true -}}{{- end -}}
{{- end -}}
{{- end -}}
{{- if not (or .Values.nats.url .Values.nats.existingSecret) -}}
{{- fail "nats.url or nats.existingSecret is required: every service joins the event bus" -}}
{{- end -}}
{{- if and $needsDatabase (not (or .Values.postgresql.url .Values.postgresql.existingSecret)) -}}
{{- fail "postgresql.url or postgresql.existingSecret is required by the services with a database" -}}
{{- end -}}
{{- if .Values.services.identity.enabled -}}
{{- $pin := .Values.pinHashKey | default dict -}}
{{- if not (or $pin.value $pin.existingSecret) -}}
{{- fail "pinHashKey.value or pinHashKey.existingSecret is required: the identity service hashes PINs with it" -}}
{{- end -}}
{{- if and $pin.value (lt (len (toString $pin.value)) 32) -}}
{{- fail "pinHashKey.value: must be at least 32 characters" -}}
{{- end -}}
{{- end -}}
{{- if and $needsRedis (not (or .Values.redis.url .Values.redis.existingSecret)) -}}
{{- fail "redis.url or redis.existingSecret is required: the gateway keeps sessions in Redis" -}}
{{- end -}}
{{- end -}}

{{/* Whether a service's pod count is owned by a HorizontalPodAutoscaler. */}}
{{- define "lws.autoscaled" -}}
{{- if and .svc.autoscaling .svc.autoscaling.enabled -}}true{{- end -}}
{{- end -}}

{{/* A service's autoscaling settings: its own, else the top-level defaults. */}}
{{- define "lws.autoscaling" -}}
{{- toYaml (merge (deepCopy (.svc.autoscaling | default dict)) .root.Values.autoscaling) -}}
{{- end -}}

{{/* The fewest pods a service runs: its replicas, or its autoscaler's minimum. */}}
{{- define "lws.minPods" -}}
{{- if include "lws.autoscaled" . -}}
{{- (include "lws.autoscaling" . | fromYaml).minReplicas -}}
{{- else -}}
{{- .svc.replicas -}}
{{- end -}}
{{- end -}}
