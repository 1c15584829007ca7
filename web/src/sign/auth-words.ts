import type { Language } from '../../../server/src/i18n/index.js';

/**
 * What the signing page says while its link asks for a code (decisions §13). Only this page
 * says it, so it lives with the page, as the direct link's words do.
 */
export type AuthWords = {
  title: string;
  accessCodeLede: string;
  accessCodeLabel: string;
  emailLede: string;
  sendCode: string;
  sending: string;
  codeSent: string;
  codeLabel: string;
  codeHint: string;
  sendAgain: string;
  sendAgainIn: string;
  open: string;
  checking: string;
  codeRequired: string;
  codeFormat: string;
  wrongCode: string;
  wrongCodeLast: string;
  locked: string;
  sendLimited: string;
  identityRefused: string;
  opening: string;
};

const en: AuthWords = {
  title: 'Confirm it is you',
  accessCodeLede: 'To open this document, enter the access code its sender gave you.',
  accessCodeLabel: 'Access code',
  emailLede:
    'To open this document, ask for a code: we e-mail it to the address this document was sent to.',
  sendCode: 'Send me a code',
  sending: 'Sending…',
  codeSent: 'We sent a 6-digit code to your e-mail address. It works for 10 minutes.',
  codeLabel: 'Code from the e-mail',
  codeHint: '6 digits',
  sendAgain: 'Send a new code',
  sendAgainIn: 'You can ask for a new code in {seconds} s.',
  open: 'Open the document',
  checking: 'Checking…',
  codeRequired: 'Enter the code.',
  codeFormat: 'The code has 6 digits.',
  wrongCode: 'That code is not right. Attempts left: {n}.',
  wrongCodeLast: 'That code is not right. One attempt left before the link is locked.',
  locked:
    'Too many wrong codes: this link is locked for now. Try again in {minutes} min, or ask the sender for help.',
  sendLimited: 'A code was sent recently. You can ask for another in {minutes} min.',
  identityRefused:
    'The link you followed could not confirm who you are, so this document asks for a code.',
  opening: 'Opening the document…',
};

const de: AuthWords = {
  title: 'Bestätigen Sie, dass Sie es sind',
  accessCodeLede:
    'Geben Sie den Zugangscode ein, den Ihnen der Absender gegeben hat, um dieses Dokument zu öffnen.',
  accessCodeLabel: 'Zugangscode',
  emailLede:
    'Fordern Sie einen Code an, um dieses Dokument zu öffnen: Wir senden ihn an die Adresse, an die das Dokument ging.',
  sendCode: 'Code senden',
  sending: 'Wird gesendet …',
  codeSent: 'Wir haben einen 6-stelligen Code an Ihre E-Mail-Adresse gesendet. Er gilt 10 Minuten.',
  codeLabel: 'Code aus der E-Mail',
  codeHint: '6 Ziffern',
  sendAgain: 'Neuen Code senden',
  sendAgainIn: 'Einen neuen Code können Sie in {seconds} s anfordern.',
  open: 'Dokument öffnen',
  checking: 'Wird geprüft …',
  codeRequired: 'Geben Sie den Code ein.',
  codeFormat: 'Der Code hat 6 Ziffern.',
  wrongCode: 'Dieser Code stimmt nicht. Verbleibende Versuche: {n}.',
  wrongCodeLast: 'Dieser Code stimmt nicht. Noch ein Versuch, dann wird der Link gesperrt.',
  locked:
    'Zu viele falsche Codes: Dieser Link ist vorerst gesperrt. Versuchen Sie es in {minutes} Min. erneut oder bitten Sie den Absender um Hilfe.',
  sendLimited:
    'Es wurde gerade ein Code gesendet. Einen weiteren können Sie in {minutes} Min. anfordern.',
  identityRefused:
    'Der Link, dem Sie gefolgt sind, konnte nicht bestätigen, wer Sie sind; deshalb verlangt dieses Dokument einen Code.',
  opening: 'Das Dokument wird geöffnet …',
};

const fr: AuthWords = {
  title: 'Confirmez qu’il s’agit bien de vous',
  accessCodeLede:
    'Pour ouvrir ce document, saisissez le code d’accès que son expéditeur vous a donné.',
  accessCodeLabel: 'Code d’accès',
  emailLede:
    'Pour ouvrir ce document, demandez un code : nous l’envoyons à l’adresse à laquelle ce document a été envoyé.',
  sendCode: 'M’envoyer un code',
  sending: 'Envoi…',
  codeSent:
    'Nous avons envoyé un code à 6 chiffres à votre adresse e-mail. Il est valable 10 minutes.',
  codeLabel: 'Code reçu par e-mail',
  codeHint: '6 chiffres',
  sendAgain: 'Envoyer un nouveau code',
  sendAgainIn: 'Vous pourrez demander un nouveau code dans {seconds} s.',
  open: 'Ouvrir le document',
  checking: 'Vérification…',
  codeRequired: 'Saisissez le code.',
  codeFormat: 'Le code comporte 6 chiffres.',
  wrongCode: 'Ce code n’est pas le bon. Essais restants : {n}.',
  wrongCodeLast: 'Ce code n’est pas le bon. Il reste un essai avant le blocage du lien.',
  locked:
    'Trop de codes erronés : ce lien est bloqué pour le moment. Réessayez dans {minutes} min ou demandez de l’aide à l’expéditeur.',
  sendLimited: 'Un code vient d’être envoyé. Vous pourrez en demander un autre dans {minutes} min.',
  identityRefused:
    'Le lien que vous avez suivi n’a pas pu confirmer votre identité ; ce document demande donc un code.',
  opening: 'Ouverture du document…',
};

const es: AuthWords = {
  title: 'Confirme que es usted',
  accessCodeLede:
    'Para abrir este documento, introduzca el código de acceso que le dio su remitente.',
  accessCodeLabel: 'Código de acceso',
  emailLede:
    'Para abrir este documento, pida un código: lo enviamos a la dirección a la que se envió este documento.',
  sendCode: 'Enviarme un código',
  sending: 'Enviando…',
  codeSent: 'Le hemos enviado un código de 6 dígitos por correo. Sirve durante 10 minutos.',
  codeLabel: 'Código del correo',
  codeHint: '6 dígitos',
  sendAgain: 'Enviar un código nuevo',
  sendAgainIn: 'Podrá pedir un código nuevo dentro de {seconds} s.',
  open: 'Abrir el documento',
  checking: 'Comprobando…',
  codeRequired: 'Introduzca el código.',
  codeFormat: 'El código tiene 6 dígitos.',
  wrongCode: 'Ese código no es correcto. Intentos restantes: {n}.',
  wrongCodeLast: 'Ese código no es correcto. Queda un intento antes de que se bloquee el enlace.',
  locked:
    'Demasiados códigos incorrectos: este enlace está bloqueado por ahora. Inténtelo de nuevo en {minutes} min o pida ayuda al remitente.',
  sendLimited: 'Se acaba de enviar un código. Podrá pedir otro dentro de {minutes} min.',
  identityRefused:
    'El enlace que siguió no pudo confirmar quién es usted, por lo que este documento pide un código.',
  opening: 'Abriendo el documento…',
};

const nl: AuthWords = {
  title: 'Bevestig dat u het bent',
  accessCodeLede: 'Voer de toegangscode in die de afzender u gaf om dit document te openen.',
  accessCodeLabel: 'Toegangscode',
  emailLede:
    'Vraag een code aan om dit document te openen: we e-mailen die naar het adres waarnaar dit document is gestuurd.',
  sendCode: 'Stuur mij een code',
  sending: 'Bezig met verzenden…',
  codeSent: 'We hebben een code van 6 cijfers naar uw e-mailadres gestuurd. Hij werkt 10 minuten.',
  codeLabel: 'Code uit de e-mail',
  codeHint: '6 cijfers',
  sendAgain: 'Stuur een nieuwe code',
  sendAgainIn: 'Over {seconds} s kunt u een nieuwe code aanvragen.',
  open: 'Document openen',
  checking: 'Bezig met controleren…',
  codeRequired: 'Voer de code in.',
  codeFormat: 'De code heeft 6 cijfers.',
  wrongCode: 'Die code klopt niet. Resterende pogingen: {n}.',
  wrongCodeLast: 'Die code klopt niet. Nog één poging voordat de link wordt geblokkeerd.',
  locked:
    'Te veel verkeerde codes: deze link is voorlopig geblokkeerd. Probeer het over {minutes} min opnieuw of vraag de afzender om hulp.',
  sendLimited: 'Er is net een code gestuurd. Over {minutes} min kunt u een nieuwe aanvragen.',
  identityRefused:
    'De link die u volgde kon niet bevestigen wie u bent, daarom vraagt dit document om een code.',
  opening: 'Het document wordt geopend…',
};

const pt: AuthWords = {
  title: 'Confirme que é você',
  accessCodeLede: 'Para abrir este documento, digite o código de acesso que o remetente lhe deu.',
  accessCodeLabel: 'Código de acesso',
  emailLede:
    'Para abrir este documento, peça um código: nós o enviamos por e-mail ao endereço para o qual este documento foi enviado.',
  sendCode: 'Enviar um código',
  sending: 'Enviando…',
  codeSent: 'Enviamos um código de 6 dígitos para o seu e-mail. Ele vale por 10 minutos.',
  codeLabel: 'Código do e-mail',
  codeHint: '6 dígitos',
  sendAgain: 'Enviar um novo código',
  sendAgainIn: 'Você pode pedir um novo código em {seconds} s.',
  open: 'Abrir o documento',
  checking: 'Verificando…',
  codeRequired: 'Digite o código.',
  codeFormat: 'O código tem 6 dígitos.',
  wrongCode: 'Este código não está correto. Tentativas restantes: {n}.',
  wrongCodeLast: 'Este código não está correto. Resta uma tentativa antes de o link ser bloqueado.',
  locked:
    'Muitos códigos errados: este link está bloqueado por enquanto. Tente de novo em {minutes} min ou peça ajuda ao remetente.',
  sendLimited: 'Um código foi enviado há pouco. Você pode pedir outro em {minutes} min.',
  identityRefused:
    'O link que você seguiu não conseguiu confirmar quem você é, por isso este documento pede um código.',
  opening: 'Abrindo o documento…',
};

const it: AuthWords = {
  title: 'Confermi la Sua identità',
  accessCodeLede:
    'Per aprire questo documento, inserisca il codice di accesso ricevuto dal mittente.',
  accessCodeLabel: 'Codice di accesso',
  emailLede:
    'Per aprire questo documento, chieda un codice: lo inviamo per e-mail all’indirizzo a cui è stato inviato il documento.',
  sendCode: 'Inviami un codice',
  sending: 'Invio in corso…',
  codeSent: 'Abbiamo inviato un codice di 6 cifre al Suo indirizzo e-mail. Vale 10 minuti.',
  codeLabel: 'Codice dell’e-mail',
  codeHint: '6 cifre',
  sendAgain: 'Invia un nuovo codice',
  sendAgainIn: 'Potrà chiedere un nuovo codice tra {seconds} s.',
  open: 'Apri il documento',
  checking: 'Verifica in corso…',
  codeRequired: 'Inserisca il codice.',
  codeFormat: 'Il codice ha 6 cifre.',
  wrongCode: 'Il codice non è corretto. Tentativi rimasti: {n}.',
  wrongCodeLast: 'Il codice non è corretto. Resta un tentativo prima che il link venga bloccato.',
  locked:
    'Troppi codici errati: questo link è bloccato per ora. Riprovi tra {minutes} min o chieda aiuto al mittente.',
  sendLimited: 'Un codice è stato inviato da poco. Potrà chiederne un altro tra {minutes} min.',
  identityRefused:
    'Il link che ha seguito non ha potuto confermare la Sua identità, quindi questo documento chiede un codice.',
  opening: 'Apertura del documento…',
};

const pl: AuthWords = {
  title: 'Potwierdź, że to Ty',
  accessCodeLede: 'Aby otworzyć ten dokument, wpisz kod dostępu otrzymany od nadawcy.',
  accessCodeLabel: 'Kod dostępu',
  emailLede:
    'Aby otworzyć ten dokument, poproś o kod: wyślemy go e-mailem na adres, na który wysłano ten dokument.',
  sendCode: 'Wyślij mi kod',
  sending: 'Wysyłanie…',
  codeSent: 'Wysłaliśmy 6-cyfrowy kod na Twój adres e-mail. Działa przez 10 minut.',
  codeLabel: 'Kod z e-maila',
  codeHint: '6 cyfr',
  sendAgain: 'Wyślij nowy kod',
  sendAgainIn: 'O nowy kod możesz poprosić za {seconds} s.',
  open: 'Otwórz dokument',
  checking: 'Sprawdzanie…',
  codeRequired: 'Wpisz kod.',
  codeFormat: 'Kod ma 6 cyfr.',
  wrongCode: 'Ten kod jest nieprawidłowy. Pozostałe próby: {n}.',
  wrongCodeLast:
    'Ten kod jest nieprawidłowy. Została jedna próba, zanim link zostanie zablokowany.',
  locked:
    'Zbyt wiele błędnych kodów: ten link jest na razie zablokowany. Spróbuj ponownie za {minutes} min lub poproś nadawcę o pomoc.',
  sendLimited: 'Kod został wysłany niedawno. O kolejny możesz poprosić za {minutes} min.',
  identityRefused:
    'Link, z którego korzystasz, nie potwierdził Twojej tożsamości, więc ten dokument wymaga kodu.',
  opening: 'Otwieranie dokumentu…',
};

const ja: AuthWords = {
  title: 'ご本人確認',
  accessCodeLede: 'この文書を開くには、送信者から受け取ったアクセスコードを入力してください。',
  accessCodeLabel: 'アクセスコード',
  emailLede:
    'この文書を開くには、コードを請求してください。この文書の送信先メールアドレスにコードをお送りします。',
  sendCode: 'コードを送信',
  sending: '送信しています…',
  codeSent: '6 桁のコードをメールアドレスに送信しました。10 分間有効です。',
  codeLabel: 'メールに記載のコード',
  codeHint: '6 桁',
  sendAgain: '新しいコードを送信',
  sendAgainIn: '{seconds} 秒後に新しいコードを請求できます。',
  open: '文書を開く',
  checking: '確認しています…',
  codeRequired: 'コードを入力してください。',
  codeFormat: 'コードは 6 桁です。',
  wrongCode: 'コードが正しくありません。残りの試行回数: {n}。',
  wrongCodeLast: 'コードが正しくありません。あと 1 回間違えるとリンクがロックされます。',
  locked:
    '間違ったコードが多すぎるため、このリンクは一時的にロックされています。{minutes} 分後にもう一度試すか、送信者にお問い合わせください。',
  sendLimited: '先ほどコードを送信しました。{minutes} 分後に再度請求できます。',
  identityRefused: 'お使いのリンクでは本人確認ができなかったため、この文書ではコードが必要です。',
  opening: '文書を開いています…',
};

const zh: AuthWords = {
  title: '确认您的身份',
  accessCodeLede: '要打开此文件,请输入发件人提供给您的访问码。',
  accessCodeLabel: '访问码',
  emailLede: '要打开此文件,请申请验证码:我们会将其发送到此文件的收件邮箱。',
  sendCode: '发送验证码',
  sending: '正在发送…',
  codeSent: '我们已向您的电子邮箱发送了 6 位验证码,10 分钟内有效。',
  codeLabel: '邮件中的验证码',
  codeHint: '6 位数字',
  sendAgain: '发送新验证码',
  sendAgainIn: '{seconds} 秒后可以申请新验证码。',
  open: '打开文件',
  checking: '正在验证…',
  codeRequired: '请输入验证码。',
  codeFormat: '验证码为 6 位数字。',
  wrongCode: '验证码不正确。剩余尝试次数:{n}。',
  wrongCodeLast: '验证码不正确。再错一次,此链接将被锁定。',
  locked: '错误次数过多:此链接暂时被锁定。请在 {minutes} 分钟后重试,或向发件人寻求帮助。',
  sendLimited: '验证码刚刚已发送。{minutes} 分钟后可以再次申请。',
  identityRefused: '您使用的链接无法确认您的身份,因此此文件需要验证码。',
  opening: '正在打开文件…',
};

const ko: AuthWords = {
  title: '본인 확인',
  accessCodeLede: '이 문서를 열려면 보낸 사람에게 받은 액세스 코드를 입력하세요.',
  accessCodeLabel: '액세스 코드',
  emailLede:
    '이 문서를 열려면 코드를 요청하세요. 이 문서를 받은 이메일 주소로 코드를 보내 드립니다.',
  sendCode: '코드 보내기',
  sending: '보내는 중…',
  codeSent: '6자리 코드를 이메일 주소로 보냈습니다. 10분 동안 유효합니다.',
  codeLabel: '이메일로 받은 코드',
  codeHint: '6자리',
  sendAgain: '새 코드 보내기',
  sendAgainIn: '{seconds}초 후에 새 코드를 요청할 수 있습니다.',
  open: '문서 열기',
  checking: '확인하는 중…',
  codeRequired: '코드를 입력하세요.',
  codeFormat: '코드는 6자리입니다.',
  wrongCode: '코드가 올바르지 않습니다. 남은 시도 횟수: {n}.',
  wrongCodeLast: '코드가 올바르지 않습니다. 한 번 더 틀리면 링크가 잠깁니다.',
  locked:
    '잘못된 코드를 너무 많이 입력하여 이 링크가 잠시 잠겼습니다. {minutes}분 후에 다시 시도하거나 보낸 사람에게 도움을 요청하세요.',
  sendLimited: '방금 코드를 보냈습니다. {minutes}분 후에 다시 요청할 수 있습니다.',
  identityRefused: '사용한 링크로 본인 확인을 할 수 없어 이 문서에는 코드가 필요합니다.',
  opening: '문서를 여는 중…',
};

const ar: AuthWords = {
  title: 'أكّد هويتك',
  accessCodeLede: 'لفتح هذا المستند، أدخل رمز الدخول الذي أعطاك إياه المرسِل.',
  accessCodeLabel: 'رمز الدخول',
  emailLede:
    'لفتح هذا المستند، اطلب رمزًا: نرسله بالبريد الإلكتروني إلى العنوان الذي أُرسل إليه هذا المستند.',
  sendCode: 'أرسل لي رمزًا',
  sending: 'جارٍ الإرسال…',
  codeSent: 'أرسلنا رمزًا من 6 أرقام إلى بريدك الإلكتروني. يعمل لمدة 10 دقائق.',
  codeLabel: 'الرمز الوارد في الرسالة',
  codeHint: '6 أرقام',
  sendAgain: 'إرسال رمز جديد',
  sendAgainIn: 'يمكنك طلب رمز جديد بعد {seconds} ث.',
  open: 'فتح المستند',
  checking: 'جارٍ التحقق…',
  codeRequired: 'أدخل الرمز.',
  codeFormat: 'يتكون الرمز من 6 أرقام.',
  wrongCode: 'هذا الرمز غير صحيح. المحاولات المتبقية: {n}.',
  wrongCodeLast: 'هذا الرمز غير صحيح. بقيت محاولة واحدة قبل قفل الرابط.',
  locked:
    'رموز خاطئة كثيرة: هذا الرابط مقفل حاليًا. حاول مرة أخرى بعد {minutes} دقيقة، أو اطلب المساعدة من المرسِل.',
  sendLimited: 'أُرسل رمز قبل قليل. يمكنك طلب رمز آخر بعد {minutes} دقيقة.',
  identityRefused: 'لم يتمكن الرابط الذي اتبعته من تأكيد هويتك، لذا يطلب هذا المستند رمزًا.',
  opening: 'جارٍ فتح المستند…',
};

/** The verification form's words in each of the page's languages. */
export const AUTH_WORDS: Record<Language, AuthWords> = {
  en,
  de,
  fr,
  es,
  nl,
  pt,
  it,
  pl,
  ja,
  zh,
  ko,
  ar,
};
