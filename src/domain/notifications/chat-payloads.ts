import { workspaceUrl, type NotificationFacts, type PayloadLinks, type PayloadTarget } from './payloads.js';

/**
 * The other forms of a notification: a Slack incoming webhook's message (text and an attachment
 * with fields), a Microsoft Teams workflow's (an Adaptive Card in a `message`, which Teams'
 * incoming webhooks and Power Automate's "when a Teams webhook request is received" both take),
 * and an email's subject and text. All are made from one summary of the facts.
 */

interface Summary {
  title: string;
  fields: { name: string; value: string }[];
  link: string | null;
  /** good, warning or danger (Slack's attachment colours; Teams' card styles follow). */
  tone: 'good' | 'warning' | 'danger';
}

function toneOf(trigger: string): Summary['tone'] {
  if (trigger === 'run:errored' || trigger === 'assessment:failed' || trigger === 'assessment:check_failure')
    return 'danger';
  if (trigger === 'run:needs_attention' || trigger === 'assessment:drifted' || trigger.startsWith('workspace:'))
    return 'warning';
  return 'good';
}

function summarize(target: PayloadTarget, facts: NotificationFacts, links: PayloadLinks): Summary {
  const tone = toneOf(facts.trigger);
  if (facts.scope === 'verification')
    return { title: facts.message, fields: [{ name: 'Configuration', value: target.name }], link: null, tone };
  const where = `${facts.organizationName}/${facts.workspaceName}`;
  const link = workspaceUrl(links, facts.organizationName, facts.workspaceName);
  if (facts.scope === 'run')
    return {
      title: `${facts.message}: ${where}`,
      fields: [
        { name: 'Workspace', value: where },
        { name: 'Run', value: facts.runId },
        { name: 'Status', value: facts.runStatus },
        ...(facts.runMessage ? [{ name: 'Message', value: facts.runMessage }] : []),
        ...(facts.runUpdatedBy ? [{ name: 'By', value: facts.runUpdatedBy }] : []),
      ],
      link: `${link}?run=${facts.runId}`,
      tone,
    };
  if (facts.scope === 'assessment')
    return {
      title: `${facts.message}: ${where}`,
      fields: [
        { name: 'Workspace', value: where },
        { name: 'Assessment result', value: facts.newResult.id },
        { name: 'Drifted', value: facts.newResult.drifted ? 'yes' : 'no' },
        { name: 'Succeeded', value: facts.newResult.succeeded ? 'yes' : 'no' },
      ],
      link,
      tone,
    };
  return {
    title: `${facts.message}: ${where}`,
    fields: [
      { name: 'Workspace', value: where },
      ...(facts.autoDestroyAt ? [{ name: 'Destroy at', value: facts.autoDestroyAt }] : []),
      ...(facts.runExternalId ? [{ name: 'Run', value: facts.runExternalId }] : []),
      ...(facts.runStatus ? [{ name: 'Status', value: facts.runStatus }] : []),
      ...(facts.runCreateErrorMessage ? [{ name: 'Not queued', value: facts.runCreateErrorMessage }] : []),
    ],
    link,
    tone,
  };
}

/** A Slack incoming webhook's message. */
export function slackPayload(target: PayloadTarget, facts: NotificationFacts, links: PayloadLinks): unknown {
  const s = summarize(target, facts, links);
  return {
    username: 'berth',
    text: s.title,
    attachments: [
      {
        fallback: s.title,
        color: s.tone,
        title: s.title,
        ...(s.link ? { title_link: s.link } : {}),
        fields: s.fields.map((f) => ({ title: f.name, value: f.value, short: f.value.length <= 40 })),
        footer: `berth notification ${target.name}`,
      },
    ],
  };
}

/** A Microsoft Teams message holding an Adaptive Card. */
export function microsoftTeamsPayload(target: PayloadTarget, facts: NotificationFacts, links: PayloadLinks): unknown {
  const s = summarize(target, facts, links);
  const color = s.tone === 'good' ? 'Good' : s.tone === 'warning' ? 'Warning' : 'Attention';
  return {
    type: 'message',
    summary: s.title,
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: s.title, weight: 'Bolder', size: 'Medium', color, wrap: true },
            { type: 'FactSet', facts: s.fields.map((f) => ({ title: f.name, value: f.value })) },
          ],
          ...(s.link ? { actions: [{ type: 'Action.OpenUrl', title: 'Open in berth', url: s.link }] } : {}),
        },
      },
    ],
  };
}

/** An email's subject and plain text. */
export function emailMessage(
  target: PayloadTarget,
  facts: NotificationFacts,
  links: PayloadLinks,
): { subject: string; text: string } {
  const s = summarize(target, facts, links);
  const lines = [s.title, '', ...s.fields.map((f) => `${f.name}: ${f.value}`)];
  if (s.link) lines.push('', s.link);
  lines.push('', `Sent by berth for the notification configuration "${target.name}" (${target.id}).`);
  return { subject: `[berth] ${s.title}`, text: `${lines.join('\n')}\n` };
}
