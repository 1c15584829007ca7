import type { Catalogue, Language } from '../../../server/src/i18n/index.js';

/** The signing page's words an approver reads in place of a signer's. */
type Replaced =
  | 'pageTitle'
  | 'eyebrow'
  | 'lede'
  | 'goToSigning'
  | 'goToStatus'
  | 'signAs'
  | 'dontWant'
  | 'decline'
  | 'reasonHint'
  | 'reasonRequired'
  | 'confirmDecline'
  | 'signedTitle'
  | 'signedBody'
  | 'declinedTitle'
  | 'notYourTurnTitle'
  | 'notYourTurnBody'
  | 'alreadySignedTitle'
  | 'alreadyDeclinedTitle'
  | 'cannotSignTitle';

/**
 * What an approver's signing page says (decisions §12): buttons `Approve` and `Reject` instead
 * of a signature, and the page's other words said of approving. Only this page says them, so
 * they live with it (as direct-link-words.ts does); `replaced` stands in for the signing words
 * of the same names on an approver's page.
 */
export type ApprovalWords = {
  approve: string;
  approving: string;
  approveIntro: string;
  replaced: Pick<Catalogue['signing'], Replaced>;
};

const en: ApprovalWords = {
  approve: 'Approve',
  approving: 'Approving…',
  approveIntro:
    'Read the document, then approve it or reject it. Approving needs no signature: your approval is recorded with the time, your address and your browser.',
  replaced: {
    pageTitle: 'Approve “{document}” · Signet',
    eyebrow: 'Approval requested',
    lede: '{sender} asks {signee} ({email}) to review and approve this document.',
    goToSigning: 'Go to approval ↓',
    goToStatus: 'Go to your approval status ↓',
    signAs: 'Approve as {name}',
    dontWant: 'Do not approve?',
    decline: 'Reject',
    reasonHint: 'Rejecting ends this signing for everyone. {sender} will see your reason.',
    reasonRequired: 'Write a short reason, so {sender} knows why you rejected it.',
    confirmDecline: 'Confirm reject',
    signedTitle: 'You approved “{document}”',
    signedBody:
      'Thank you. There is nothing else you need to do: once everyone has signed, you will receive the signed PDF by e-mail.',
    declinedTitle: 'You rejected “{document}”',
    notYourTurnTitle: 'It is not your turn to approve yet',
    notYourTurnBody:
      'Someone else needs to sign or approve before you. You will get an e-mail when it is your turn; you can read the document in the meantime.',
    alreadySignedTitle: 'You have approved this document',
    alreadyDeclinedTitle: 'You rejected this document',
    cannotSignTitle: 'This document cannot be approved right now',
  },
};

const de: ApprovalWords = {
  approve: 'Freigeben',
  approving: 'Wird freigegeben…',
  approveIntro:
    'Lesen Sie das Dokument, dann geben Sie es frei oder weisen es zurück. Die Freigabe braucht keine Unterschrift: Sie wird mit Zeit, Adresse und Browser festgehalten.',
  replaced: {
    pageTitle: '„{document}“ freigeben · Signet',
    eyebrow: 'Freigabe erbeten',
    lede: '{sender} bittet {signee} ({email}), dieses Dokument zu prüfen und freizugeben.',
    goToSigning: 'Zur Freigabe ↓',
    goToStatus: 'Zu Ihrem Freigabestatus ↓',
    signAs: 'Freigeben als {name}',
    dontWant: 'Sie möchten nicht freigeben?',
    decline: 'Zurückweisen',
    reasonHint:
      'Eine Zurückweisung beendet diese Unterschrift für alle. {sender} sieht Ihren Grund.',
    reasonRequired: 'Geben Sie kurz einen Grund an, damit {sender} weiß, warum Sie zurückweisen.',
    confirmDecline: 'Zurückweisung bestätigen',
    signedTitle: 'Sie haben „{document}“ freigegeben',
    signedBody:
      'Vielen Dank. Sie müssen nichts weiter tun: Sobald alle unterschrieben haben, erhalten Sie das unterschriebene PDF per E-Mail.',
    declinedTitle: 'Sie haben „{document}“ zurückgewiesen',
    notYourTurnTitle: 'Sie sind mit der Freigabe noch nicht an der Reihe',
    notYourTurnBody:
      'Vor Ihnen muss noch jemand unterschreiben oder freigeben. Sie erhalten eine E-Mail, sobald Sie an der Reihe sind; bis dahin können Sie das Dokument lesen.',
    alreadySignedTitle: 'Sie haben dieses Dokument freigegeben',
    alreadyDeclinedTitle: 'Sie haben dieses Dokument zurückgewiesen',
    cannotSignTitle: 'Dieses Dokument kann gerade nicht freigegeben werden',
  },
};

const fr: ApprovalWords = {
  approve: 'Approuver',
  approving: 'Approbation en cours…',
  approveIntro:
    "Lisez le document, puis approuvez-le ou rejetez-le. L'approbation ne demande aucune signature : elle est enregistrée avec l'heure, votre adresse et votre navigateur.",
  replaced: {
    pageTitle: 'Approuver « {document} » · Signet',
    eyebrow: 'Approbation demandée',
    lede: '{sender} demande à {signee} ({email}) d’examiner et d’approuver ce document.',
    goToSigning: 'Aller à l’approbation ↓',
    goToStatus: 'Voir le statut de votre approbation ↓',
    signAs: 'Approuver en tant que {name}',
    dontWant: 'Vous ne souhaitez pas approuver ?',
    decline: 'Rejeter',
    reasonHint: 'Rejeter met fin à cette signature pour tous. {sender} verra votre motif.',
    reasonRequired: 'Indiquez brièvement un motif, pour que {sender} sache pourquoi vous rejetez.',
    confirmDecline: 'Confirmer le rejet',
    signedTitle: 'Vous avez approuvé « {document} »',
    signedBody:
      "Merci. Vous n'avez rien d'autre à faire : une fois que tout le monde aura signé, vous recevrez le PDF signé par e-mail.",
    declinedTitle: 'Vous avez rejeté « {document} »',
    notYourTurnTitle: "Ce n'est pas encore votre tour d'approuver",
    notYourTurnBody:
      "Quelqu'un doit signer ou approuver avant vous. Vous recevrez un e-mail quand ce sera votre tour ; en attendant, vous pouvez lire le document.",
    alreadySignedTitle: 'Vous avez approuvé ce document',
    alreadyDeclinedTitle: 'Vous avez rejeté ce document',
    cannotSignTitle: 'Ce document ne peut pas être approuvé pour le moment',
  },
};

const es: ApprovalWords = {
  approve: 'Aprobar',
  approving: 'Aprobando…',
  approveIntro:
    'Lea el documento y después apruébelo o recházelo. Aprobar no requiere firma: su aprobación queda registrada con la hora, su dirección y su navegador.',
  replaced: {
    pageTitle: 'Aprobar «{document}» · Signet',
    eyebrow: 'Aprobación solicitada',
    lede: '{sender} pide a {signee} ({email}) que revise y apruebe este documento.',
    goToSigning: 'Ir a la aprobación ↓',
    goToStatus: 'Ver el estado de su aprobación ↓',
    signAs: 'Aprobar como {name}',
    dontWant: '¿No quiere aprobar?',
    decline: 'Rechazar',
    reasonHint: 'Rechazar termina esta firma para todos. {sender} verá su motivo.',
    reasonRequired: 'Escriba un breve motivo, para que {sender} sepa por qué lo rechaza.',
    confirmDecline: 'Confirmar el rechazo',
    signedTitle: 'Ha aprobado «{document}»',
    signedBody:
      'Gracias. No tiene que hacer nada más: cuando todos hayan firmado, recibirá el PDF firmado por correo.',
    declinedTitle: 'Ha rechazado «{document}»',
    notYourTurnTitle: 'Todavía no es su turno de aprobar',
    notYourTurnBody:
      'Alguien tiene que firmar o aprobar antes que usted. Recibirá un correo cuando sea su turno; mientras tanto, puede leer el documento.',
    alreadySignedTitle: 'Ha aprobado este documento',
    alreadyDeclinedTitle: 'Ha rechazado este documento',
    cannotSignTitle: 'Este documento no se puede aprobar ahora',
  },
};

const nl: ApprovalWords = {
  approve: 'Goedkeuren',
  approving: 'Bezig met goedkeuren…',
  approveIntro:
    'Lees het document en keur het daarna goed of af. Goedkeuren vraagt geen handtekening: uw goedkeuring wordt vastgelegd met de tijd, uw adres en uw browser.',
  replaced: {
    pageTitle: '"{document}" goedkeuren · Signet',
    eyebrow: 'Goedkeuring gevraagd',
    lede: '{sender} vraagt {signee} ({email}) dit document te bekijken en goed te keuren.',
    goToSigning: 'Naar het goedkeuren ↓',
    goToStatus: 'Naar uw goedkeuringsstatus ↓',
    signAs: 'Goedkeuren als {name}',
    dontWant: 'Wilt u niet goedkeuren?',
    decline: 'Afkeuren',
    reasonHint: 'Afkeuren beëindigt deze ondertekening voor iedereen. {sender} ziet uw reden.',
    reasonRequired: 'Geef een korte reden, zodat {sender} weet waarom u afkeurt.',
    confirmDecline: 'Afkeuring bevestigen',
    signedTitle: 'U hebt "{document}" goedgekeurd',
    signedBody:
      'Dank u. U hoeft verder niets te doen: zodra iedereen heeft ondertekend, ontvangt u de ondertekende pdf per e-mail.',
    declinedTitle: 'U hebt "{document}" afgekeurd',
    notYourTurnTitle: 'U bent nog niet aan de beurt om goed te keuren',
    notYourTurnBody:
      'Iemand anders moet eerst ondertekenen of goedkeuren. U krijgt een e-mail als u aan de beurt bent; intussen kunt u het document lezen.',
    alreadySignedTitle: 'U hebt dit document goedgekeurd',
    alreadyDeclinedTitle: 'U hebt dit document afgekeurd',
    cannotSignTitle: 'Dit document kan nu niet worden goedgekeurd',
  },
};

/** An approver's words in each language of the signing page. */
export const APPROVAL_WORDS: Record<Language, ApprovalWords> = { en, de, fr, es, nl };
