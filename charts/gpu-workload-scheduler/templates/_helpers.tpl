{{/* The image both Deployments run: repository@digest, or repository:tag (the appVersion when empty). */}}
{{- define "gpu-workload-scheduler.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end -}}
