describe 'Checkout' do
  it 'records nested activities and a capture' do
    total = activity('Fill the cart') do
      activity('Add a book') { 12 } + activity('Add a pen') { 3 }
    end
    capture 'AlertVerifier', title: 'Pay?', animated: true,
                             actions: [{ title: 'Cancel', style: 'cancel' }, { title: 'Pay', style: 'default' }]
    total.should.equal 15
  end

  it 'marks the activity a failure happened in' do
    declined = begin
      activity('Pay') { raise ArgumentError, 'declined' }
    rescue ArgumentError
      true
    end
    declined.should.be.true
  end

  it 'waits for a total that arrives late' do
    shown_at = Time.now + 0.05
    eventually('total shown', timeout: 1) { Time.now >= shown_at }.should.be.true
  end

  it 'gives up on a receipt that never prints' do
    eventually('receipt printed', timeout: 0.1, interval: 0.02) { false }.should.be.false
  end

  it 'waits for the spinner to stop' do
    stops_at = Time.now + 0.03
    spinner = predicate('spinner shown') { Time.now < stops_at }
    spinner.holds.should.be.true
    spinner.doesnt_hold(timeout: 1).should.be.true
  end
end
